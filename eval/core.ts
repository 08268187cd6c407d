/**
 * The retrieval eval: imports a data set into a real mnemo database (temp SQLite file, real migrations,
 * real services) through importMemories, asks every question through retrieve() with each strategy,
 * and scores the ranked results against the data set's evidence labels.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { documentFrequencies, generatedVectorConfig, writeGeneratedModel } from '../bench/lib/generatedModel.ts';
import { TRANSFORMERS_MODEL_FILES } from '../server/embedding/transformers.ts';
import { findWordVectorPackage, wordVectorModelId } from '../server/embedding/wordVectors.ts';
import { createLogger } from '../server/logger.ts';
import { importMemories } from '../server/memory/import.service.ts';
import type { MemoryDeps } from '../server/memory/memory.service.ts';
import { aggregate, type MetricRow, type Outcome, score } from '../server/retrieval/rankingMetrics.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import type { Strategy } from '../server/retrieval/retrieval.ts';
import { createServices, type Services } from '../server/services.ts';
import { STRATEGIES } from '../server/settings/settings.service.ts';
import { LIMITS } from '../server/validation.ts';
import { loadVectorConfig, type VectorConfig } from '../server/vectorConfig.ts';
import { type EvalDataset, type EvalQuestion, loadDataset } from './datasets.ts';
import { openEvalStore } from './store.ts';

export const RETENTION_DAYS = 365;
export const DEFAULT_KS = [1, 5, 10] as const;
export const DEFAULT_MAX_TOKENS = 16_000;
/** The small blocks each question is also asked with: how much of the evidence survives a tight budget. */
export const DEFAULT_BUDGETS = [250, 500, 1_000, 2_000] as const;
const IMPORT_CHUNK = Math.min(5_000, LIMITS.importRows);
const DAY_MS = 86_400_000;

/**
 * Where vectors come from: none (keyword tier only), a static model generated from the data, the word vectors of
 * an installed npm package (the static source's offline fallback), or a local transformers model.
 */
export type EvalSource = 'none' | 'static' | 'package' | 'transformers';
export const SOURCES: readonly EvalSource[] = ['none', 'static', 'package', 'transformers'];
/** The generated static model's dimension (potion-base-8M's is 256). */
export const DEFAULT_STATIC_DIM = 256;
const STATIC_MAX_VOCAB = 100_000;

export type Phase = 'load' | 'import' | 'replay' | 'embed' | 'query';
export interface Progress {
  phase: Phase;
  done: number;
  total: number;
  /** e.g. the strategy being queried. */
  detail?: string;
}

export interface EvalOptions {
  /** Cut-offs for hit@k; the largest is the retrieve limit. */
  ks?: readonly number[];
  /** First N questions of the data set. */
  limit?: number | null;
  strategies?: readonly Strategy[];
  /** Embedding sources to evaluate (default: all; one that cannot run here is reported as skipped). */
  sources?: readonly EvalSource[] | null;
  /** Dimension of the generated static model (default 256). */
  staticDim?: number;
  /** Where the transformers model is configured (MEMORY_TRANSFORMERS_MODEL, MEMORY_TRANSFORMERS_CACHE_DIR); default process.env. */
  env?: NodeJS.ProcessEnv;
  maxTokens?: number;
  /** Token caps each question is asked again with, to see what a small block keeps (default 250, 500, 1000, 2000). */
  budgets?: readonly number[];
  /** A superuser's URL of a PostgreSQL server to run on (a database of its own, dropped after); null or absent: SQLite. */
  postgresUrl?: string | null;
  onProgress?: (p: Progress) => void;
}

export type { MetricRow } from '../server/retrieval/rankingMetrics.ts';

export interface StrategyReport {
  strategy: Strategy;
  source: EvalSource;
  /** How each retrieval was answered, from result.resolution: "keyword (fallback)" → count. */
  answeredBy: Record<string, number>;
  fallbackReasons: Record<string, number>;
  /** The embedding source and model the resolution named: "static generated/bow-idf-256" → count. */
  embeddings: Record<string, number>;
  overall: MetricRow;
  byType: MetricRow[];
  /**
   * HYBRID's fusion shares over the retrievals that fused two tiers (resolution.fusion): how many, the mean vector
   * share, and how many fused with the guard's lowest (0.1) and highest (0.5) share. null: no retrieval fused.
   */
  fusion: { retrievals: number; meanVectorShare: number; lowest: number; highest: number } | null;
  /** Retrievals that returned nothing at all. */
  emptyResults: number;
  /** Results raised (or brought in) by session adjacency, over all retrievals. */
  adjacent: number;
  /** Memories left out of the blocks as near-duplicates, over all retrievals. */
  nearDuplicates: number;
  /** Tokens of the injected blocks (result.tokensUsed), over all retrievals. */
  tokens: number;
  /** Retrievals where the token budget, not the limit, ended the list. */
  budgetCut: number;
  /** The same questions asked with each small token cap, smallest first. */
  budgets: BudgetRow[];
  /** Results holding another API key's memory; must be 0. */
  crossTenant: number;
  /**
   * One distractor per question, asked of the same key: another key's question where the data set has other keys,
   * else a chat line unrelated to any memory ("thanks!"). Clean: the block held no memory but enforced and profile
   * ones (the standing facts, injected whatever is asked).
   */
  distractors: { asked: number; clean: number; injected: number };
  queryMs: number;
}

export interface BudgetRow {
  maxTokens: number;
  /** Share of questions whose block holds at least one relevant memory. */
  hit: number;
  /** Mean of result.tokensUsed over the questions. */
  meanTokens: number;
}

export interface SourceRun {
  source: EvalSource;
  /** In words, for the report. */
  label: string;
  model: string | null;
  /** Why it did not run, or null. */
  skipped: string | null;
  /** The reindex job that embedded the memories before any question (null for none, or when skipped before it). */
  embedding: { memories: number; failed: number; vectors: number; ms: number; status: string; error: string | null } | null;
}

export interface EvalReport {
  dataset: string;
  /** The store the memories were kept in. */
  store: 'sqlite' | 'postgres';
  format: EvalDataset['format'];
  description: string;
  questions: number;
  skipped: Record<string, number>;
  apiKeys: number;
  memories: { imported: number; updated: number; rejected: number; outsideRetention: number };
  ks: number[];
  limit: number;
  maxTokens: number;
  budgets: number[];
  /** One per requested source, in order: what it was, how its memories were embedded, or why it was skipped. */
  sources: SourceRun[];
  /** Every strategy run, grouped by source in the order of `sources`. */
  strategies: StrategyReport[];
  notes: string[];
  timings: { loadMs: number; importMs: number; totalMs: number };
}

/** Reads the folder and evaluates it. */
export async function evaluateFolder(dir: string, options: EvalOptions = {}): Promise<EvalReport> {
  const t0 = performance.now();
  const dataset = loadDataset(dir, {
    limit: options.limit ?? null,
    onProgress: (done, total) => options.onProgress?.({ phase: 'load', done, total }),
  });
  const loadMs = performance.now() - t0;
  const report = await evaluateDataset(dataset, options);
  report.timings.loadMs = loadMs;
  report.timings.totalMs += loadMs;
  return report;
}

export async function evaluateDataset(dataset: EvalDataset, options: EvalOptions = {}): Promise<EvalReport> {
  const started = performance.now();
  const ks = normaliseKs(options.ks ?? DEFAULT_KS);
  const limit = ks[ks.length - 1]!;
  const strategies = options.strategies ?? STRATEGIES;
  const sources = options.sources ?? SOURCES;
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const budgets = normaliseBudgets(options.budgets ?? DEFAULT_BUDGETS);
  const progress = options.onProgress ?? (() => {});

  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-'));
  const postgresUrl = options.postgresUrl ?? null;
  const database = await openEvalStore(dir, postgresUrl);
  try {
    const logger = createLogger('silent');
    const services = createServices({ db: database.db, logger });
    await services.settings.update({ enabled: true, retentionDays: RETENTION_DAYS });

    const t0 = performance.now();
    const { memories, rejectReasons } = await importTenants(services, dataset, progress);
    const importMs = performance.now() - t0;
    // As a server does at start and hourly: statistics for the planner, now that the tables are filled.
    await database.analyze();

    const reports: StrategyReport[] = [];
    const runs: SourceRun[] = [];
    const ask = async (deps: MemoryDeps, source: EvalSource, list: readonly Strategy[]) => {
      for (const strategy of list) reports.push(await askAll(deps, dataset, { strategy, source, ks, limit, maxTokens, budgets }, progress));
    };
    for (const source of sources) {
      if (source === 'none') {
        // No embedding model: EXACT, and the keyword tier answering for SEMANTIC and HYBRID.
        runs.push({ source, label: 'no embedding model: keyword tier only', model: null, skipped: null, embedding: null });
        await ask(services, source, strategies);
        continue;
      }
      // On PostgreSQL vectors live in Qdrant only, which the evaluation does not run.
      if (postgresUrl !== null) {
        runs.push({
          source,
          label: source,
          model: null,
          skipped: 'on PostgreSQL vectors live in Qdrant, which the evaluation has not',
          embedding: null,
        });
        continue;
      }
      // EXACT ignores the vector tier: it runs once, with source none.
      const vectorStrategies = strategies.filter((s) => s !== 'EXACT');
      if (vectorStrategies.length === 0) {
        runs.push({ source, label: source, model: null, skipped: 'no strategy that uses the vector tier was asked for', embedding: null });
        continue;
      }
      // Generating the static model is part of getting its vectors: the embed phase starts here.
      if (source === 'static') progress({ phase: 'embed', done: 0, total: countMemories(dataset), detail: source });
      const env = options.env ?? process.env;
      const prepared =
        source === 'static'
          ? await generatedStatic(dataset, dir, options.staticDim ?? DEFAULT_STATIC_DIM)
          : source === 'package'
            ? wordVectorPackage(env)
            : localTransformers(env);
      if ('skipped' in prepared) {
        runs.push({ source, label: source, model: null, skipped: prepared.skipped, embedding: null });
        continue;
      }
      // Services over the same database with this source's vector configuration; the reindex job embeds every memory first.
      const withModel = createServices({ db: database.db, logger, vectorConfig: prepared.vectorConfig });
      await withModel.settings.update({ embeddingSource: source === 'transformers' ? 'TRANSFORMERS' : 'STATIC' });
      const embedding = await embedAll(withModel, source, progress);
      const run: SourceRun = { source, label: prepared.label, model: prepared.model, skipped: null, embedding };
      runs.push(run);
      if (embedding.status !== 'completed' || embedding.vectors === 0) {
        run.skipped = `the reindex job ended ${embedding.status}${embedding.error ? ` (${embedding.error})` : ''} with ${embedding.vectors} vectors`;
        continue;
      }
      await ask(withModel, source, vectorStrategies);
    }

    const notes = [...dataset.notes];
    for (const [reason, n] of Object.entries(rejectReasons)) notes.push(`${n} memories rejected by import: ${reason}`);
    return {
      dataset: dataset.name,
      store: database.kind,
      format: dataset.format,
      description: dataset.description,
      questions: dataset.questions.length,
      skipped: dataset.skipped,
      apiKeys: dataset.tenants.length,
      memories,
      ks,
      limit,
      maxTokens,
      budgets,
      sources: runs,
      strategies: reports,
      notes,
      timings: { loadMs: 0, importMs, totalMs: performance.now() - started },
    };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const countMemories = (dataset: EvalDataset) => dataset.tenants.reduce((n, t) => n + t.memories.length, 0);

/** Imports every tenant's memories through the real import path, one transaction per chunk. */
export async function importTenants(services: Services, dataset: EvalDataset, progress: (p: Progress) => void) {
  const memories = { imported: 0, updated: 0, rejected: 0, outsideRetention: 0 };
  const rejectReasons: Record<string, number> = {};
  const asOfByKey = new Map(dataset.questions.map((q) => [q.apiKeyId, q.asOf] as const));
  const totalMemories = countMemories(dataset);
  let done = 0;
  progress({ phase: 'import', done, total: totalMemories });
  for (const tenant of dataset.tenants) {
    const asOf = asOfByKey.get(tenant.apiKeyId) ?? null;
    for (let i = 0; i < tenant.memories.length; i += IMPORT_CHUNK) {
      const chunk = tenant.memories.slice(i, i + IMPORT_CHUNK);
      const rows = chunk.map((m) => ({ apiKeyId: tenant.apiKeyId, type: 'episodic' as const, ...m }));
      const result = await importMemories(services, rows, () => true);
      memories.imported += result.imported;
      memories.updated += result.updated;
      memories.rejected += result.rejected.length;
      for (const r of result.rejected) rejectReasons[r.reason] = (rejectReasons[r.reason] ?? 0) + 1;
      if (asOf !== null) {
        const cutoff = asOf - RETENTION_DAYS * DAY_MS;
        memories.outsideRetention += chunk.filter((m) => m.createdAt !== undefined && m.createdAt.getTime() < cutoff).length;
      }
      done += chunk.length;
      progress({ phase: 'import', done, total: totalMemories });
    }
  }
  return { memories, rejectReasons };
}

/** Asks every question with one strategy and scores the answers. */
async function askAll(
  deps: MemoryDeps,
  dataset: EvalDataset,
  o: { strategy: Strategy; source: EvalSource; ks: number[]; limit: number; maxTokens: number; budgets: number[] },
  progress: (p: Progress) => void,
): Promise<StrategyReport> {
  const { strategy, ks, limit, maxTokens, budgets } = o;
  const detail = `${strategy}, source ${o.source}`;
  const q0 = performance.now();
  const outcomes: Outcome[] = [];
  const answeredBy: Record<string, number> = {};
  const fallbackReasons: Record<string, number> = {};
  const embeddings: Record<string, number> = {};
  const vectorShares: number[] = [];
  let emptyResults = 0;
  let adjacent = 0;
  let nearDuplicates = 0;
  let tokens = 0;
  let budgetCut = 0;
  let crossTenant = 0;
  const small = budgets.map((b) => ({ maxTokens: b, hits: 0, tokens: 0 }));
  const distractors = { asked: 0, clean: 0, injected: 0 };
  progress({ phase: 'query', done: 0, total: dataset.questions.length, detail });
  for (const [i, question] of dataset.questions.entries()) {
    // Retrieval runs as of the moment the question was asked, so retention is judged against
    // the conversation's own timeline rather than today's date.
    const asOf = question.asOf;
    const at: MemoryDeps = asOf === null ? deps : { ...deps, now: () => asOf };
    const result = await retrieve(
      at,
      { apiKeyId: question.apiKeyId, query: question.query, strategy, maxTokens, limit },
      { record: false },
    );
    // The tiers that searched; what adjacency and the profile fill added is counted apart.
    const searched = result.resolution.tiers.filter((t) => t !== 'adjacent' && t !== 'profile');
    const label = searched.length > 0 ? searched.join('+') : 'none';
    const answered = result.resolution.fallbackReason ? `${label} (fallback)` : label;
    bump(answeredBy, answered);
    if (result.resolution.fallbackReason) bump(fallbackReasons, result.resolution.fallbackReason);
    const e = result.resolution.embedding;
    if (e?.source) bump(embeddings, `${e.source} ${e.model ?? ''}`.trim());
    if (result.resolution.fusion) vectorShares.push(result.resolution.fusion.vectorShare);
    if (result.items.length === 0) emptyResults++;
    adjacent += result.items.filter((item) => item.adjacentTo !== null).length;
    nearDuplicates += result.resolution.nearDuplicates;
    tokens += result.tokensUsed;
    // Repeats left out shorten the list too; only what is still missing was the budget's doing.
    if (result.items.length + result.resolution.nearDuplicates < Math.min(limit, result.candidates)) budgetCut++;
    crossTenant += result.items.filter((item) => item.memory.apiKeyId !== question.apiKeyId).length;
    outcomes.push(
      score(
        question,
        result.items.map((item) => item.memory.key),
        ks,
      ),
    );
    for (const cap of small) {
      const block = await retrieve(
        at,
        { apiKeyId: question.apiKeyId, query: question.query, strategy, maxTokens: cap.maxTokens, limit },
        { record: false },
      );
      if (block.items.some((item) => question.relevant.has(item.memory.key))) cap.hits++;
      cap.tokens += block.tokensUsed;
    }
    const distractor = await retrieve(
      at,
      { apiKeyId: question.apiKeyId, query: distractorFor(dataset, i), strategy, maxTokens, limit },
      { record: false },
    );
    const stray = distractor.items.filter((item) => item.tier !== 'profile' && item.tier !== 'enforced').length;
    distractors.asked++;
    distractors.injected += stray;
    if (stray === 0) distractors.clean++;
    progress({ phase: 'query', done: i + 1, total: dataset.questions.length, detail });
  }
  return {
    strategy,
    source: o.source,
    answeredBy,
    fallbackReasons,
    embeddings,
    overall: aggregate('all', outcomes, ks),
    byType: byType(dataset.questions, outcomes, ks),
    fusion:
      vectorShares.length === 0
        ? null
        : {
            retrievals: vectorShares.length,
            meanVectorShare: vectorShares.reduce((a, b) => a + b, 0) / vectorShares.length,
            lowest: vectorShares.filter((w) => w <= MIN_GUARDED_SHARE).length,
            highest: vectorShares.filter((w) => w >= MAX_GUARDED_SHARE).length,
          },
    emptyResults,
    adjacent,
    nearDuplicates,
    tokens,
    budgetCut,
    budgets: small.map((cap) => ({
      maxTokens: cap.maxTokens,
      hit: dataset.questions.length === 0 ? 0 : cap.hits / dataset.questions.length,
      meanTokens: dataset.questions.length === 0 ? 0 : cap.tokens / dataset.questions.length,
    })),
    crossTenant,
    distractors,
    queryMs: performance.now() - q0,
  };
}

/** Chat lines a gateway sees that ask nothing of memory. */
const CHAT_LINES = [
  'thanks!',
  'what is 2+2?',
  'write a haiku about rain',
  'ok, sounds good',
  'can you say that more briefly?',
  'tell me a joke',
];

/**
 * Question i's distractor: every other one is another key's question (the next question of a different key), the
 * rest chat lines; a data set with one key only gets chat lines.
 */
function distractorFor(dataset: EvalDataset, i: number): string {
  const { questions } = dataset;
  const own = questions[i]!.apiKeyId;
  if (i % 2 === 0) {
    for (let step = 1; step < questions.length; step++) {
      const other = questions[(i + step) % questions.length]!;
      if (other.apiKeyId !== own) return other.query;
    }
  }
  return CHAT_LINES[Math.floor(i / 2) % CHAT_LINES.length]!;
}

/** Runs a reindex job over every memory and waits for it, as an operator would after choosing a model. */
async function embedAll(
  services: Services,
  source: EvalSource,
  progress: (p: Progress) => void,
): Promise<NonNullable<SourceRun['embedding']>> {
  const t0 = performance.now();
  const started = await services.reindex.start(false);
  let job = started;
  for await (const update of services.reindex.watch(started.id)) {
    job = update;
    progress({ phase: 'embed', done: job.processed + job.failed, total: job.total, detail: source });
  }
  await services.reindex.idle();
  const vectors = await services.vectors.index.count();
  return { memories: job.processed, failed: job.failed, vectors, ms: performance.now() - t0, status: job.status, error: job.error };
}

type PreparedSource = { vectorConfig: VectorConfig; label: string; model: string } | { skipped: string };

/**
 * No model hub is reachable, so no real static model (potion-base-8M) can be had: a model2vec-layout model is
 * generated over the data set's own vocabulary, one pseudo-random row per word scaled by the word's IDF in the
 * memories. A text's vector is then the IDF-weighted mean of random word vectors: a bag-of-words random
 * projection, whose cosine tracks weighted word overlap. A lexical baseline for the vector path, not semantics.
 */
async function generatedStatic(dataset: EvalDataset, dir: string, dim: number): Promise<PreparedSource> {
  const texts = dataset.tenants.flatMap((t) => t.memories.map((m) => m.content));
  const { df, documents } = documentFrequencies(texts);
  const vocab = [...df.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, STATIC_MAX_VOCAB)
    .map(([w]) => w);
  const model = writeGeneratedModel(path.join(dir, 'models'), {
    vocab,
    dim,
    model: `generated/bow-idf-${dim}`,
    weight: (w) => Math.log(1 + documents / (df.get(w) ?? 1)),
  });
  return {
    vectorConfig: generatedVectorConfig(model, dir),
    model: model.model,
    label:
      `GENERATED static model ${model.model}: IDF-weighted bag-of-words random projection over this data set's own ` +
      `${model.vocabSize.toLocaleString('en-US')} words, ${dim}-d (no model hub here) - a lexical baseline, NOT a semantic model`,
  };
}

/** Engine settings of the eval's model sources: nothing downloaded, no background worker (the reindex job embeds). */
const OFFLINE = { MEMORY_TRANSFORMERS_ALLOW_REMOTE: 'false', MEMORY_STATIC_ALLOW_DOWNLOAD: 'false', MEMORY_WORKER_INTERVAL_MS: '0' };

/**
 * The static source as a server without a hub loads it: from the npm word-vector package (MEMORY_STATIC_PACKAGE),
 * converted once into MEMORY_STATIC_CACHE_DIR (or the default under MNEMO_DATA_DIR) and reused by later runs.
 */
function wordVectorPackage(env: NodeJS.ProcessEnv): PreparedSource {
  const dataDir = path.resolve(env.MNEMO_DATA_DIR ?? './data');
  let config: VectorConfig;
  try {
    config = loadVectorConfig({ ...env, ...OFFLINE }, dataDir);
  } catch (error) {
    return { skipped: `the vector configuration in the environment is invalid: ${(error as Error).message}` };
  }
  if (!config.staticPackage) return { skipped: 'MEMORY_STATIC_PACKAGE is empty: no word-vector package' };
  const pkg = findWordVectorPackage(config.staticPackage);
  if (!pkg) return { skipped: `the word-vector package ${config.staticPackage} (MEMORY_STATIC_PACKAGE) is not installed` };
  // A hub model under that name would be used first; this source measures the package.
  return {
    vectorConfig: { ...config, staticModel: HUB_MODEL_NOT_USED },
    model: wordVectorModelId(pkg),
    label: `word vectors of the npm package ${pkg.name}@${pkg.version} (${pkg.license}), IDF-weighted mean, as the static source loads them when its hub model cannot be had - a weak semantic model`,
  };
}

/** No folder of this name holds a model, so the static source's hub step is always skipped for the package source. */
const HUB_MODEL_NOT_USED = 'eval/no-hub-model';

/** The transformers source as the server would configure it from the environment, only if its files are on disk. */
function localTransformers(env: NodeJS.ProcessEnv): PreparedSource {
  const dataDir = path.resolve(env.MNEMO_DATA_DIR ?? './data');
  let config: VectorConfig;
  try {
    config = loadVectorConfig({ ...env, ...OFFLINE }, dataDir);
  } catch (error) {
    return { skipped: `the vector configuration in the environment is invalid: ${(error as Error).message}` };
  }
  const folder = path.join(config.transformersCacheDir, config.transformersModel);
  const missing = TRANSFORMERS_MODEL_FILES.filter((f) => !existsSync(path.join(folder, f)));
  if (missing.length > 0) {
    const where = env.MEMORY_TRANSFORMERS_CACHE_DIR
      ? 'MEMORY_TRANSFORMERS_CACHE_DIR'
      : `MEMORY_TRANSFORMERS_CACHE_DIR unset, so the default under ${dataDir}`;
    return {
      skipped:
        `model ${config.transformersModel} (MEMORY_TRANSFORMERS_MODEL) is not on disk: ${missing.join(', ')} missing in ${folder} (${where}); ` +
        'no model hub is reachable here, so it cannot be downloaded',
    };
  }
  return { vectorConfig: config, model: config.transformersModel, label: `transformers model ${config.transformersModel} from ${folder}` };
}

function byType(questions: readonly EvalQuestion[], outcomes: readonly Outcome[], ks: readonly number[]): MetricRow[] {
  return byQuestionType(questions, outcomes).map(([type, group]) => aggregate(type, group, ks));
}

/** The outcomes of the questions that have a type, grouped by it, types in alphabetical order. */
export function byQuestionType<O>(questions: readonly EvalQuestion[], outcomes: readonly O[]): [string, O[]][] {
  const groups = new Map<string, O[]>();
  questions.forEach((q, i) => {
    if (q.type === null) return;
    if (!groups.has(q.type)) groups.set(q.type, []);
    groups.get(q.type)!.push(outcomes[i]!);
  });
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function normaliseKs(ks: readonly number[]): number[] {
  const out = [...new Set(ks)].sort((a, b) => a - b);
  if (out.length === 0) throw new Error('give at least one k');
  for (const k of out) if (!Number.isInteger(k) || k < 1 || k > 500) throw new Error(`k must be a whole number from 1 to 500, not ${k}`);
  return out;
}

export function normaliseBudgets(budgets: readonly number[]): number[] {
  const out = [...new Set(budgets)].sort((a, b) => a - b);
  for (const b of out) {
    if (!Number.isInteger(b) || b < 1 || b > 16_000) throw new Error(`a budget must be a whole number of tokens from 1 to 16000, not ${b}`);
  }
  return out;
}

/** A small cap's hit rate as a share of the largest cap's: how much of what the big block finds the small one keeps. */
export function shareOfLargest(rows: readonly BudgetRow[], maxTokens: number): number | null {
  const row = rows.find((r) => r.maxTokens === maxTokens);
  const largest = rows.at(-1);
  if (!row || !largest || largest.hit === 0) return null;
  return row.hit / largest.hit;
}

function bump(counter: Record<string, number>, key: string) {
  counter[key] = (counter[key] ?? 0) + 1;
}

// ---------------------------------------------------------------------------------------------
// Output

const pct = (x: number) => x.toFixed(3);
const int = (n: number) => n.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function renderTable(header: string[], rows: string[][], leftColumns: number): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`.trimEnd();
  return [line(header), `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`, ...rows.map(line)];
}

/** The report as plain text for stdout. */
export function formatReport(r: EvalReport): string {
  const out: string[] = [];
  const skippedTotal = Object.values(r.skipped).reduce((a, b) => a + b, 0);
  out.push(`mnemo retrieval eval: ${r.dataset} (${r.format})`);
  out.push(`  ${r.description}`);
  out.push(
    `  questions: ${int(r.questions)} evaluated, ${int(skippedTotal)} skipped` +
      (skippedTotal > 0
        ? ` (${Object.entries(r.skipped)
            .map(([why, n]) => `${why}: ${n}`)
            .join('; ')})`
        : ''),
  );
  out.push(
    `  memories: ${int(r.memories.imported)} imported into ${int(r.apiKeys)} API key${r.apiKeys === 1 ? '' : 's'}, ${int(r.memories.updated)} merged, ` +
      `${int(r.memories.rejected)} rejected; ${int(r.memories.outsideRetention)} older than the ${RETENTION_DAYS}-day retention as of their question`,
  );
  out.push(`  store: ${r.store}; retrieve: limit ${r.limit}, maxTokens ${r.maxTokens}, record false`);
  for (const note of r.notes) out.push(`  note: ${note}`);
  out.push('  embedding sources:');
  for (const s of r.sources) {
    if (s.skipped && !s.embedding) {
      out.push(`    ${s.source}: SKIPPED - ${s.skipped}`);
      continue;
    }
    out.push(`    ${s.source}: ${s.label}`);
    if (s.embedding) {
      const e = s.embedding;
      out.push(
        `      reindex job before the questions: ${e.status}, ${int(e.memories)} memories embedded (${int(e.failed)} failed), ${int(e.vectors)} vectors, ` +
          `${secs(e.ms)} (${e.ms > 0 ? int(Math.round((e.memories * 1000) / e.ms)) : '-'}/s)`,
      );
    }
    if (s.skipped) out.push(`      SKIPPED - ${s.skipped}`);
  }
  out.push('');

  const header = ['strategy', 'source', 'answered by', 'questions', 'n', ...r.ks.map((k) => `R@${k}`), 'MRR', `ev@${r.limit}`];
  const rows: string[][] = [];
  for (const s of r.strategies) {
    const answered = Object.entries(s.answeredBy)
      .sort((a, b) => b[1] - a[1])
      .map(([label, n]) => (Object.keys(s.answeredBy).length > 1 ? `${label} ×${n}` : label))
      .join(', ');
    const metricCells = (m: MetricRow) => [int(m.questions), ...r.ks.map((k) => pct(m.hitAt[k] ?? 0)), pct(m.mrr), pct(m.evidenceRecall)];
    rows.push([s.strategy, SOURCE_LABEL[s.source], answered, 'all', ...metricCells(s.overall)]);
    for (const t of s.byType) rows.push(['', '', '', t.group, ...metricCells(t)]);
  }
  out.push(...renderTable(header, rows, 4));
  out.push('');
  out.push(`  R@k: share of questions with a relevant memory among the first k results (hit@k).`);
  out.push(
    `  MRR: mean 1/rank of the first relevant result within the first ${r.limit}. ev@${r.limit}: mean share of a question's relevant memories found in the first ${r.limit}.`,
  );
  out.push(
    `  answered by: the tiers in result.resolution (enforced, exact, keyword, vector); "(fallback)" when resolution.fallbackReason was set.`,
  );
  if (r.strategies.some((s) => s.source === 'static')) {
    out.push(
      `  static*: a GENERATED bag-of-words random projection (see above), not a semantic model: its vector tier can only match shared words.`,
    );
  }
  for (const s of r.strategies) {
    if (s.fusion) out.push(`  fusion ${s.strategy} / ${s.source}: ${fusionSummary(s.fusion)}`);
  }
  for (const s of r.strategies) {
    for (const [why, n] of Object.entries(s.fallbackReasons)) out.push(`  fallback ×${n}  ${s.strategy} / ${s.source}: ${why}`);
  }
  for (const s of r.strategies) {
    const embeddings = Object.entries(s.embeddings)
      .map(([name, n]) => `${name} ×${n}`)
      .join(', ');
    out.push(
      `  ${s.strategy} / ${s.source}: ${int(s.emptyResults)} empty results, ${int(s.adjacent)} results raised by session adjacency, ` +
        `${int(s.nearDuplicates)} near-duplicates left out, ${r.questions > 0 ? int(Math.round(s.tokens / r.questions)) : '-'} tokens per block, ` +
        `${int(s.budgetCut)} cut short by the token budget, ` +
        `${int(s.crossTenant)} cross-tenant results; distractors: ${int(s.distractors.clean)} of ${int(s.distractors.asked)} clean (${pct(s.distractors.asked > 0 ? s.distractors.clean / s.distractors.asked : 1)}), ${int(s.distractors.injected)} memories injected for them; queries ${secs(s.queryMs)} (${r.questions > 0 ? (s.queryMs / r.questions).toFixed(1) : '-'} ms each)` +
        (s.source !== 'none' && embeddings ? `; embedding: ${embeddings}` : ''),
    );
  }
  out.push(...budgetLines(r));
  out.push(`  time: load ${secs(r.timings.loadMs)}, import ${secs(r.timings.importMs)}, total ${secs(r.timings.totalMs)}`);
  return `${out.join('\n')}\n`;
}

/** The issue's bar: a 500-token block should find at least 90% of what the largest block finds. */
const TARGET_CAP = 500;

function budgetLines(r: EvalReport): string[] {
  if (r.budgets.length === 0) return [];
  const largest = r.budgets.at(-1)!;
  const target = r.budgets.includes(TARGET_CAP) && TARGET_CAP < largest;
  const header = [
    'strategy',
    'source',
    ...r.budgets.flatMap((b) => [`hit@${b}`, `tokens@${b}`]),
    ...(target ? [`${TARGET_CAP}/${largest}`] : []),
  ];
  const rows = r.strategies.map((s) => [
    s.strategy,
    SOURCE_LABEL[s.source],
    ...s.budgets.flatMap((b) => [pct(b.hit), int(Math.round(b.meanTokens))]),
    ...(target ? [ratio(shareOfLargest(s.budgets, TARGET_CAP))] : []),
  ]);
  return [
    '',
    '  small blocks: each question asked again with these token caps',
    ...renderTable(header, rows, 2),
    `  hit@N: share of questions whose block, capped at N tokens, holds a relevant memory. tokens@N: mean tokens injected.` +
      (target ? ` ${TARGET_CAP}/${largest}: hit@${TARGET_CAP} over hit@${largest} (target 0.90 or more).` : ''),
  ];
}

const ratio = (x: number | null) => (x === null ? '–' : x.toFixed(2));

/** The small-block table of docs/retrieval-quality.md: per run, each cap's hit rate and mean tokens. */
export function formatBudgetMarkdown(reports: readonly EvalReport[]): string {
  const budgets = reports[0]?.budgets ?? [];
  if (budgets.length === 0) return '';
  const largest = budgets.at(-1)!;
  const target = budgets.includes(TARGET_CAP) && TARGET_CAP < largest;
  const lines = [
    `| data set | strategy | embedding | ${budgets.map((b) => `${int(b)} tokens: hit · mean used`).join(' | ')} |${target ? ` ${TARGET_CAP} ÷ ${int(largest)} |` : ''}`,
    `|---|---|---|${budgets.map(() => '---|').join('')}${target ? '---|' : ''}`,
  ];
  for (const r of reports) {
    for (const s of r.strategies) {
      const cells = s.budgets.map((b) => `${pct(b.hit)} · ${int(Math.round(b.meanTokens))}`);
      lines.push(
        `| ${r.dataset} (${int(r.questions)}) | ${s.strategy} | ${modelName(r, s)} | ${cells.join(' | ')} |${target ? ` ${ratio(shareOfLargest(s.budgets, TARGET_CAP))} |` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const SOURCE_LABEL: Record<EvalSource, string> = { none: 'none', static: 'static*', package: 'package', transformers: 'transformers' };

/** The guard's lowest and highest vector share (retrieval/fusion.ts). */
const MIN_GUARDED_SHARE = 0.1;
const MAX_GUARDED_SHARE = 0.5;

/** "vector share 0.21 on average: 0.1 in 120, 0.5 in 40 of 300 fused retrievals" */
function fusionSummary(f: NonNullable<StrategyReport['fusion']>): string {
  return `vector share ${f.meanVectorShare.toFixed(2)} on average: ${MIN_GUARDED_SHARE} in ${int(f.lowest)}, ${MAX_GUARDED_SHARE} in ${int(f.highest)} of ${int(f.retrievals)} fused retrievals`;
}

function modelName(r: EvalReport, s: StrategyReport): string {
  if (s.source === 'none') return '–';
  if (s.source === 'static') return 'generated static*';
  return r.sources.find((x) => x.source === s.source)?.model ?? s.source;
}

/** One Markdown table over every report: the retrieval-quality table of docs/retrieval-quality.md. */
export function formatMarkdown(reports: readonly EvalReport[]): string {
  const ks = reports[0]?.ks ?? [];
  const lines = [
    `| data set | strategy | embedding | answered by | ${ks.map((k) => `R@${k}`).join(' | ')} | MRR | distractors clean | vector share: mean (0.1 / 0.5 / fused) |`,
    `|---|---|---|---|${ks.map(() => '---|').join('')}---|---|---|`,
  ];
  for (const r of reports) {
    for (const s of r.strategies) {
      const model = modelName(r, s);
      const answered = Object.entries(s.answeredBy)
        .sort((a, b) => b[1] - a[1])
        .map(([label]) => label)
        .join(', ');
      const m = s.overall;
      lines.push(
        `| ${r.dataset} (${int(r.questions)}) | ${s.strategy} | ${model} | ${answered} | ${ks.map((k) => pct(m.hitAt[k] ?? 0)).join(' | ')} | ${pct(m.mrr)} | ${pct(s.distractors.asked > 0 ? s.distractors.clean / s.distractors.asked : 1)} | ${s.fusion ? `${s.fusion.meanVectorShare.toFixed(2)} (${int(s.fusion.lowest)} / ${int(s.fusion.highest)} / ${int(s.fusion.retrievals)})` : '–'} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
