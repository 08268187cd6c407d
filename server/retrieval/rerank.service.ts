import type { ProviderService } from '../embedding/provider.service.ts';
import { type Reranker, rerankerAt } from '../rerank/reranker.ts';
import type { SettingsReader } from '../settings/settings.service.ts';
import { type ModelTest, notTested, testReranker } from '../vector/modelTest.ts';
import { CallRecord, type RecentCalls, trackedReranker } from '../vector/recentCalls.ts';

/** The reranker retrieval uses now, or null with the reason it is off; how the calls to that model went lately. */
export interface RerankChoice {
  reranker: Reranker | null;
  reason: string;
  calls: RecentCalls | null;
}

/**
 * Retrieval's reranker, as the settings choose it (rerankEnabled, rerankProviderModel, else the environment's
 * provider): built from the model's endpoint at each call, so a settings or provider change applies at once. Its
 * calls are counted across retrievals, afresh when another model or endpoint is chosen.
 */
export class RerankService {
  private calls: { key: string; record: CallRecord } | null = null;

  constructor(
    private readonly deps: {
      settings: SettingsReader;
      providers: ProviderService;
      /** The services' clock: the recent-call windows. */
      now: () => number;
      /** Per call: reranking sits on the request path. */
      timeoutMs: number;
    },
  ) {}

  async reranker(): Promise<RerankChoice> {
    const settings = await this.deps.settings.get();
    const off = (reason: string) => ({ reranker: null, reason, calls: null });
    if (!settings.rerankEnabled) return off('rerankEnabled is off');
    const name = settings.rerankProviderModel ?? this.deps.providers.envRerank();
    if (!name) return off('no rerankProviderModel is set');
    const endpoint = await this.deps.providers.endpoint(name, 'rerank');
    if (!endpoint) return off(`rerank model "${name}" is not configured`);
    const key = `${name}|${endpoint.baseUrl}`;
    if (this.calls?.key !== key) this.calls = { key, record: new CallRecord(this.deps.now) };
    const { record } = this.calls;
    const reranker = trackedReranker(rerankerAt(endpoint, this.deps.timeoutMs), record);
    return { reranker, reason: `using ${name}`, calls: record.snapshot() };
  }

  /** The reranker these settings choose (a draft's), counting its calls apart from this one's. */
  withSettings(settings: SettingsReader): RerankService {
    return new RerankService({ ...this.deps, settings });
  }

  /** One real call to the rerank model in use, or why there is none; counted in the recent calls like any other. */
  async test(): Promise<ModelTest> {
    const { reranker, reason } = await this.reranker();
    return reranker ? testReranker(reranker) : notTested('rerank', null, reason);
  }
}

/** The operation behind testEngineModel(RERANK); the service holds the model it tests. */
export function testRerankModel(deps: { rerank: RerankService }): Promise<ModelTest> {
  return deps.rerank.test();
}
