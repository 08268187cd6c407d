import type { Db } from './db/open.ts';
import { type StoreDescription, type StoreKind, storeDialect } from './db/storeDialect.ts';
import type { ReindexJob, ReindexRunner } from './jobs/reindex.service.ts';
import type { RerankService } from './retrieval/rerank.service.ts';
import { probeKeywordIndex } from './retrieval/retrieval.repository.ts';
import type { QdrantService, QdrantStatus } from './vector/qdrant.service.ts';
import type { RecentCalls } from './vector/recentCalls.ts';
import * as repo from './vector/vector.repository.ts';
import type { EmbeddingStatus, VectorService } from './vector/vector.service.ts';
import { signatureKey, type VectorIndexStatus } from './vector/vectorIndex.ts';

export interface Probe {
  available: boolean;
  latencyMs: number;
  error: string | null;
}

export interface EngineStatus {
  /** The store the data is in, asked with a real query; its kind is known even when it does not answer. */
  store: Probe & Omit<StoreDescription, 'kind' | 'version'> & { kind: StoreKind; version: string | null };
  keyword: Probe & { documents: number };
  embedding: EmbeddingStatus;
  vectorStore: VectorIndexStatus & {
    extension: Probe & { version: string | null };
    pendingReindex: number;
    /** False when the current embedder makes vectors of another signature than the stored ones. */
    signatureMatches: boolean | null;
  };
  rerank: { enabled: boolean; model: string | null; reason: string; calls: RecentCalls | null };
  qdrant: QdrantStatus;
  reindex: ReindexJob | null;
  checkedAt: Date;
}

/** What each part of retrieval can do right now, each one probed with a real query rather than assumed. */
export async function engineStatus(deps: {
  db: Db;
  now: () => number;
  vectors: VectorService;
  rerank: RerankService;
  reindex: ReindexRunner;
  qdrant: QdrantService;
}): Promise<EngineStatus> {
  const { db, now, vectors, reindex, qdrant } = deps;
  const [database, keyword, extension, embedding, vectorIndex, pending, rerank, job, qdrantStatus] = await Promise.all([
    probe(() => storeDialect(db).describe(db)),
    probe(() => probeKeywordIndex(db)),
    probe(() => vectors.index.version()),
    vectors.embeddingStatus(),
    vectors.index.status(),
    repo.countPending(db),
    deps.rerank.reranker(),
    reindex.latest(),
    qdrant.status(),
  ]);
  const { embedder } = await vectors.embedding();
  const current = embedder ? vectors.signatureOf(embedder) : null;
  const where = database.value ?? { file: null, host: null, port: null, database: null, version: null };
  return {
    store: { ...database.probe, ...where, kind: storeDialect(db).kind },
    keyword: { ...keyword.probe, documents: keyword.value ?? 0 },
    embedding,
    vectorStore: {
      ...vectorIndex,
      extension: { ...extension.probe, version: extension.value ?? null },
      pendingReindex: pending,
      signatureMatches: current && vectorIndex.signature ? signatureKey(current) === vectorIndex.signature : null,
    },
    rerank: { enabled: rerank.reranker !== null, model: rerank.reranker?.model ?? null, reason: rerank.reason, calls: rerank.calls },
    qdrant: qdrantStatus,
    reindex: job,
    checkedAt: new Date(now()),
  };
}

async function probe<T>(run: () => Promise<T>): Promise<{ probe: Probe; value: T | null }> {
  const started = performance.now();
  try {
    const value = await run();
    return { probe: { available: true, latencyMs: performance.now() - started, error: null }, value };
  } catch (error) {
    return {
      probe: { available: false, latencyMs: performance.now() - started, error: error instanceof Error ? error.message : String(error) },
      value: null,
    };
  }
}
