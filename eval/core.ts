/**
 * The retrieval eval: imports a data set into a real mnemo database (temp SQLite file, real migrations,
 * real services) through importMemories, asks every question through retrieve() with each strategy,
 * and scores the ranked results against the data set's evidence labels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest } from '../server/db/migrate.ts';
import { openDatabase } from '../server/db/open.ts';
import { createLogger } from '../server/logger.ts';
import { LIMITS } from '../server/memory/memory.ts';
import { importMemories, type MemoryDeps } from '../server/memory/memory.service.ts';
import { retrieve, type Strategy } from '../server/memory/retrieval.ts';
import { createServices } from '../server/services.ts';
import { STRATEGIES } from '../server/settings/settings.ts';
import { type EvalDataset, type EvalQuestion, loadDataset } from './datasets.ts';

export const RETENTION_DAYS = 365;
export const DEFAULT_KS = [1, 5, 10] as const;
export const DEFAULT_MAX_TOKENS = 16_000;
const IMPORT_CHUNK = Math.min(5_000, LIMITS.importRows);
const DAY_MS = 86_400_000;

export type Phase = 'load' | 'import' | 'query';
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
  maxTokens?: number;
  onProgress?: (p: Progress) => void;
}

export interface MetricRow {
  group: string;
  questions: number;
  /** k → share of questions with at least one relevant memory among the first k results. */
  hitAt: Record<number, number>;
  /** Mean over questions of 1/rank of the first relevant result within the first max-k; 0 if none. */
  mrr: number;
  /** Mean over questions of the share of its relevant memories among the first max-k results. */
  evidenceRecall: number;
}

export interface StrategyReport {
  strategy: Strategy;
  /** How each retrieval was answered, from result.resolution: "keyword (fallback)" → count. */
  answeredBy: Record<string, number>;
  fallbackReasons: Record<string, number>;
  overall: MetricRow;
  byType: MetricRow[];
  /** Retrievals that returned nothing at all. */
  emptyResults: number;
  /** Retrievals where the token budget, not the limit, ended the list. */
  budgetCut: number;
  /** Results holding another API key's memory; must be 0. */
  crossTenant: number;
  queryMs: number;
}

export interface EvalReport {
  dataset: string;
  format: EvalDataset['format'];
  description: string;
  questions: number;
  skipped: Record<string, number>;
  apiKeys: number;
  memories: { imported: number; updated: number; rejected: number; outsideRetention: number };
  ks: number[];
  limit: number;
  maxTokens: number;
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
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const progress = options.onProgress ?? (() => {});

  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-'));
  const database = openDatabase(path.join(dir, 'eval.db'));
  try {
    await migrateToLatest(database.db);
    const services = createServices({ db: database.db, logger: createLogger('silent') });
    await services.settings.update({ enabled: true, retentionDays: RETENTION_DAYS });

    // Import: every tenant's memories through the real import path, one transaction per chunk.
    const t0 = performance.now();
    const memories = { imported: 0, updated: 0, rejected: 0, outsideRetention: 0 };
    const rejectReasons: Record<string, number> = {};
    const asOfByKey = new Map(dataset.questions.map((q) => [q.apiKeyId, q.asOf] as const));
    const totalMemories = dataset.tenants.reduce((n, t) => n + t.memories.length, 0);
    let done = 0;
    progress({ phase: 'import', done, total: totalMemories });
    for (const tenant of dataset.tenants) {
      const asOf = asOfByKey.get(tenant.apiKeyId) ?? null;
      for (let i = 0; i < tenant.memories.length; i += IMPORT_CHUNK) {
        const chunk = tenant.memories.slice(i, i + IMPORT_CHUNK);
        const rows = chunk.map((m) => ({ apiKeyId: tenant.apiKeyId, type: 'episodic' as const, ...m }));
        const result = await importMemories(services.memory, rows, () => true);
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
    const importMs = performance.now() - t0;

    const reports: StrategyReport[] = [];
    const total = dataset.questions.length * strategies.length;
    let asked = 0;
    progress({ phase: 'query', done: asked, total, detail: strategies[0] });
    for (const strategy of strategies) {
      const q0 = performance.now();
      const outcomes: Outcome[] = [];
      const answeredBy: Record<string, number> = {};
      const fallbackReasons: Record<string, number> = {};
      let emptyResults = 0;
      let budgetCut = 0;
      let crossTenant = 0;
      for (const question of dataset.questions) {
        // Retrieval runs as of the moment the question was asked, so retention is judged against
        // the conversation's own timeline rather than today's date.
        const deps: MemoryDeps = question.asOf === null ? services.memory : { ...services.memory, now: () => question.asOf! };
        const result = await retrieve(
          deps,
          { apiKeyId: question.apiKeyId, query: question.query, strategy, maxTokens, limit },
          { record: false },
        );
        const label = result.resolution.tiers.length > 0 ? result.resolution.tiers.join('+') : 'none';
        const answered = result.resolution.fallbackReason ? `${label} (fallback)` : label;
        bump(answeredBy, answered);
        if (result.resolution.fallbackReason) bump(fallbackReasons, result.resolution.fallbackReason);
        if (result.items.length === 0) emptyResults++;
        if (result.items.length < Math.min(limit, result.candidates)) budgetCut++;
        crossTenant += result.items.filter((i) => i.memory.apiKeyId !== question.apiKeyId).length;
        outcomes.push(score(question, result.items.map((i) => i.memory.key), ks));
        asked++;
        progress({ phase: 'query', done: asked, total, detail: strategy });
      }
      reports.push({
        strategy,
        answeredBy,
        fallbackReasons,
        overall: aggregate('all', outcomes, ks),
        byType: byType(dataset.questions, outcomes, ks),
        emptyResults,
        budgetCut,
        crossTenant,
        queryMs: performance.now() - q0,
      });
    }

    const notes = [...dataset.notes];
    for (const [reason, n] of Object.entries(rejectReasons)) notes.push(`${n} memories rejected by import: ${reason}`);
    return {
      dataset: dataset.name,
      format: dataset.format,
      description: dataset.description,
      questions: dataset.questions.length,
      skipped: dataset.skipped,
      apiKeys: dataset.tenants.length,
      memories,
      ks,
      limit,
      maxTokens,
      strategies: reports,
      notes,
      timings: { loadMs: 0, importMs, totalMs: performance.now() - started },
    };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Outcome {
  /** 1-based rank of the first relevant result, or null. */
  firstHit: number | null;
  /** Relevant results among the first max-k, over all relevant memories of the question. */
  evidenceRecall: number;
}

/** Scores one ranked list of memory keys against the question's relevant keys. */
export function score(question: Pick<EvalQuestion, 'relevant'>, rankedKeys: readonly string[], ks: readonly number[]): Outcome {
  const top = rankedKeys.slice(0, Math.max(...ks));
  const index = top.findIndex((k) => question.relevant.has(k));
  const found = new Set(top.filter((k) => question.relevant.has(k))).size;
  return { firstHit: index === -1 ? null : index + 1, evidenceRecall: found / question.relevant.size };
}

function aggregate(group: string, outcomes: readonly Outcome[], ks: readonly number[]): MetricRow {
  const n = outcomes.length;
  const mean = (f: (o: Outcome) => number) => (n === 0 ? 0 : outcomes.reduce((s, o) => s + f(o), 0) / n);
  const hitAt: Record<number, number> = {};
  for (const k of ks) hitAt[k] = mean((o) => (o.firstHit !== null && o.firstHit <= k ? 1 : 0));
  return {
    group,
    questions: n,
    hitAt,
    mrr: mean((o) => (o.firstHit === null ? 0 : 1 / o.firstHit)),
    evidenceRecall: mean((o) => o.evidenceRecall),
  };
}

function byType(questions: readonly EvalQuestion[], outcomes: readonly Outcome[], ks: readonly number[]): MetricRow[] {
  const groups = new Map<string, Outcome[]>();
  questions.forEach((q, i) => {
    if (q.type === null) return;
    if (!groups.has(q.type)) groups.set(q.type, []);
    groups.get(q.type)!.push(outcomes[i]!);
  });
  return [...groups.keys()].sort().map((type) => aggregate(type, groups.get(type)!, ks));
}

export function normaliseKs(ks: readonly number[]): number[] {
  const out = [...new Set(ks)].sort((a, b) => a - b);
  if (out.length === 0) throw new Error('give at least one k');
  for (const k of out) if (!Number.isInteger(k) || k < 1 || k > 500) throw new Error(`k must be a whole number from 1 to 500, not ${k}`);
  return out;
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
      (skippedTotal > 0 ? ` (${Object.entries(r.skipped).map(([why, n]) => `${why}: ${n}`).join('; ')})` : ''),
  );
  out.push(
    `  memories: ${int(r.memories.imported)} imported into ${int(r.apiKeys)} API key${r.apiKeys === 1 ? '' : 's'}, ${int(r.memories.updated)} merged, ` +
      `${int(r.memories.rejected)} rejected; ${int(r.memories.outsideRetention)} older than the ${RETENTION_DAYS}-day retention as of their question`,
  );
  out.push(`  retrieve: limit ${r.limit}, maxTokens ${r.maxTokens}, record false`);
  for (const note of r.notes) out.push(`  note: ${note}`);
  out.push('');

  const header = ['strategy', 'answered by', 'questions', 'n', ...r.ks.map((k) => `R@${k}`), 'MRR', `ev@${r.limit}`];
  const rows: string[][] = [];
  for (const s of r.strategies) {
    const answered = Object.entries(s.answeredBy)
      .sort((a, b) => b[1] - a[1])
      .map(([label, n]) => (Object.keys(s.answeredBy).length > 1 ? `${label} ×${n}` : label))
      .join(', ');
    const metricCells = (m: MetricRow) => [int(m.questions), ...r.ks.map((k) => pct(m.hitAt[k] ?? 0)), pct(m.mrr), pct(m.evidenceRecall)];
    rows.push([s.strategy, answered, 'all', ...metricCells(s.overall)]);
    for (const t of s.byType) rows.push(['', '', t.group, ...metricCells(t)]);
  }
  out.push(...renderTable(header, rows, 3));
  out.push('');
  out.push(`  R@k: share of questions with a relevant memory among the first k results (hit@k).`);
  out.push(`  MRR: mean 1/rank of the first relevant result within the first ${r.limit}. ev@${r.limit}: mean share of a question's relevant memories found in the first ${r.limit}.`);
  const reasons = new Map<string, number>();
  for (const s of r.strategies) for (const [why, n] of Object.entries(s.fallbackReasons)) reasons.set(`${s.strategy}: ${why}`, n);
  for (const [why, n] of reasons) out.push(`  fallback ×${n}  ${why}`);
  for (const s of r.strategies) {
    out.push(
      `  ${s.strategy}: ${int(s.emptyResults)} empty results, ${int(s.budgetCut)} cut short by the token budget, ` +
        `${int(s.crossTenant)} cross-tenant results; queries ${secs(s.queryMs)} (${r.questions > 0 ? (s.queryMs / r.questions).toFixed(1) : '-'} ms each)`,
    );
  }
  out.push(`  time: load ${secs(r.timings.loadMs)}, import ${secs(r.timings.importMs)}, total ${secs(r.timings.totalMs)}`);
  return `${out.join('\n')}\n`;
}
