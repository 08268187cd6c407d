/**
 * The gateway eval: instead of importing one memory per turn, each LongMemEval conversation is replayed as a gateway
 * sees it (per user turn: injectMemory with the session so far, then extractAndStore of the user message and of the
 * assistant's answer), and the question is then asked through injectMemory and retrieve. Each capture mode runs on a
 * store of its own; the direct import runs beside them with the same measures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractAndStore, injectMemory } from '../server/gateway/gateway.service.ts';
import { createLogger } from '../server/logger.ts';
import type { Memory } from '../server/memory/memory.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import type { RetrievedMemory } from '../server/retrieval/retrieval.ts';
import { createServices, type Services } from '../server/services.ts';
import type { Settings } from '../server/settings/settings.service.ts';
import { byQuestionType, DEFAULT_KS, DEFAULT_MAX_TOKENS, importTenants, normaliseKs, type Progress, RETENTION_DAYS } from './core.ts';
import {
  detectFormat,
  type EvalDataset,
  type EvalMemory,
  type EvalQuestion,
  type EvalTenant,
  loadDataset,
  timeOf,
  UnsupportedDataError,
} from './datasets.ts';
import {
  KNOWLEDGE_UPDATE,
  type UpdateMetrics,
  type UpdateOutcome,
  updateEvidenceOf,
  updateMetrics,
  updateOutcome,
} from './knowledgeUpdates.ts';
import { openEvalStore } from './store.ts';

export type CaptureMode = Settings['captureTurns'];
export const CAPTURE_MODES: readonly CaptureMode[] = ['OFF', 'USER', 'ALL'];
/** How the memories got into the store: imported one per turn, or replayed through the gateway with a capture mode. */
export type GatewayMode = 'direct' | CaptureMode;

/** Any provider that takes the system role: the block is injected as a system message, as for most chats. */
const PROVIDER = 'openai';

export interface GatewayOptions {
  ks?: readonly number[];
  limit?: number | null;
  /** retrieve's token budget for the ranked list scored at k (the injected block uses the settings' maxTokens). */
  maxTokens?: number;
  captures?: readonly CaptureMode[];
  /** Only the questions of these types (LongMemEval's question_type), and only their conversations. */
  types?: readonly string[] | null;
  /** Each capture mode is replayed once per value: extraction's facts superseding older ones, or not. */
  supersession?: readonly Supersession[];
  postgresUrl?: string | null;
  onProgress?: (p: Progress) => void;
}

export interface GatewayMetrics {
  group: string;
  questions: number;
  /** Share of questions with a memory holding evidence anywhere in the store. */
  inStore: number;
  /** k → share of questions with a memory holding evidence among retrieve's first k. */
  hitAt: Record<number, number>;
  /** Share of questions whose injected block holds a memory with evidence. */
  inBlock: number;
  /** Mean tokens of the block injected for the question. */
  tokens: number;
}

export type Supersession = 'on' | 'off';
export const SUPERSESSION: readonly Supersession[] = ['on', 'off'];

export interface GatewayRow {
  mode: GatewayMode;
  supersession: Supersession;
  overall: GatewayMetrics;
  byType: GatewayMetrics[];
  /** Non-empty turns of the conversations, replayed or imported. */
  turns: number;
  /** Every memory row in the store once the conversations are in, and the UTF-8 bytes of their content and metadata. */
  stored: { memories: number; bytes: number };
  /** The knowledge-update questions (knowledgeUpdates.ts), when the data set has some with evidence at two moments. */
  updates: UpdateMetrics | null;
}

export interface GatewayReport {
  dataset: string;
  questions: number;
  skipped: Record<string, number>;
  ks: number[];
  maxTokens: number;
  /** The settings' maxTokens: the injected block's budget. */
  blockMaxTokens: number;
  rows: GatewayRow[];
  notes: string[];
}

export async function evaluateGatewayFolder(dir: string, options: GatewayOptions = {}): Promise<GatewayReport> {
  const format = detectFormat(dir);
  if (format !== 'longmemeval') throw new UnsupportedDataError(`${dir}: gateway mode replays conversations, which ${format} data has not`);
  const dataset = ofTypes(
    loadDataset(dir, { limit: options.limit ?? null, onProgress: (done, total) => options.onProgress?.({ phase: 'load', done, total }) }),
    options.types ?? null,
  );
  const ks = normaliseKs(options.ks ?? DEFAULT_KS);
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const rows: GatewayRow[] = [];
  let blockMaxTokens = 0;
  const runs = [
    { mode: 'direct' as const, supersession: 'on' as const },
    ...(options.captures ?? CAPTURE_MODES).flatMap((mode) =>
      (options.supersession ?? ['on']).map((supersession) => ({ mode, supersession })),
    ),
  ];
  for (const { mode, supersession } of runs) {
    const run = await runMode(dataset, mode, supersession, {
      ks,
      maxTokens,
      postgresUrl: options.postgresUrl ?? null,
      progress: options.onProgress ?? (() => {}),
    });
    blockMaxTokens = run.blockMaxTokens;
    rows.push(run.row);
  }
  return {
    dataset: dataset.name,
    questions: dataset.questions.length,
    skipped: dataset.skipped,
    ks,
    maxTokens,
    blockMaxTokens,
    rows,
    notes: dataset.notes,
  };
}

/** The data set cut to the questions of `types` and the keys they are asked of. */
function ofTypes(dataset: EvalDataset, types: readonly string[] | null): EvalDataset {
  if (types === null) return dataset;
  const questions = dataset.questions.filter((q) => q.type !== null && types.includes(q.type));
  const keys = new Set(questions.map((q) => q.apiKeyId));
  return {
    ...dataset,
    questions,
    tenants: dataset.tenants.filter((t) => keys.has(t.apiKeyId)),
    skipped: {},
    notes: [...dataset.notes, `only ${types.join(', ')}: ${questions.length} of ${dataset.questions.length} questions evaluated`],
  };
}

async function runMode(
  dataset: EvalDataset,
  mode: GatewayMode,
  supersession: Supersession,
  o: { ks: number[]; maxTokens: number; postgresUrl: string | null; progress: (p: Progress) => void },
): Promise<{ row: GatewayRow; blockMaxTokens: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-gateway-'));
  const database = await openEvalStore(dir, o.postgresUrl);
  try {
    const services = createServices({ db: database.db, logger: createLogger('silent') });
    const settings = await services.settings.update({
      enabled: true,
      retentionDays: RETENTION_DAYS,
      ...(mode === 'direct' ? {} : { captureTurns: mode }),
    });
    if (mode === 'direct') await importTenants(services, dataset, o.progress);
    else await replayAll({ ...services, supersedeFacts: supersession === 'on' }, dataset, mode, o.progress);
    await database.analyze();

    const rows = await database.db.selectFrom('memories').select(['api_key_id', 'content', 'metadata']).execute();
    const stored = {
      memories: rows.length,
      bytes: rows.reduce((n, r) => n + Buffer.byteLength(r.content) + Buffer.byteLength(r.metadata), 0),
    };

    const storedByKey = new Map<string, Pick<Memory, 'content' | 'metadata'>[]>();
    for (const r of rows) {
      if (!storedByKey.has(r.api_key_id)) storedByKey.set(r.api_key_id, []);
      storedByKey.get(r.api_key_id)!.push({ content: r.content, metadata: JSON.parse(r.metadata) as Record<string, unknown> });
    }
    const tenants = new Map(dataset.tenants.map((t) => [t.apiKeyId, t] as const));
    const outcomes: Outcome[] = [];
    const updates: UpdateOutcome[] = [];
    const detail = mode === 'direct' ? 'direct import' : `capture ${mode}, supersession ${supersession}`;
    for (const [i, question] of dataset.questions.entries()) {
      const tenant = tenants.get(question.apiKeyId)!;
      const evidence = evidenceOf(question, tenant);
      const inStore = (storedByKey.get(question.apiKeyId) ?? []).some((m) => holdsEvidence(m, evidence));
      const { outcome, ranked, block } = await ask(services, question, evidence, o);
      outcomes.push({ ...outcome, inStore });
      const update = updateEvidenceOf(question, tenant);
      if (update !== null) updates.push(updateOutcome(update, ranked, block));
      o.progress({ phase: 'query', done: i + 1, total: dataset.questions.length, detail });
    }
    const turns = dataset.tenants.reduce((n, t) => n + t.memories.length, 0);
    return {
      row: {
        mode,
        overall: aggregate('all', outcomes, o.ks),
        byType: byType(dataset.questions, outcomes, o.ks),
        supersession,
        turns,
        stored,
        updates: updates.length === 0 ? null : updateMetrics(updates),
      },
      blockMaxTokens: settings.maxTokens,
    };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every tenant's conversations replayed through the gateway's calls, in order. */
async function replayAll(
  services: Services & { supersedeFacts: boolean },
  dataset: EvalDataset,
  mode: CaptureMode,
  progress: (p: Progress) => void,
) {
  const total = dataset.tenants.reduce((n, t) => n + t.memories.length, 0);
  const detail = `capture ${mode}`;
  let done = 0;
  progress({ phase: 'replay', done, total, detail });
  for (const tenant of dataset.tenants) {
    for (const session of sessionsOf(tenant)) {
      const messages: { role: string; content: string }[] = [];
      for (const turn of session) {
        const at = timeOf(turn);
        const deps = at === null ? services : { ...services, now: () => at };
        const role = turn.metadata?.role === 'user' ? 'user' : 'assistant';
        messages.push({ role, content: turn.content });
        // The request a gateway forwards for this user message: the session so far, memories injected first.
        if (role === 'user')
          await injectMemory(deps, {
            apiKeyId: tenant.apiKeyId,
            sessionId: turn.sessionId,
            provider: PROVIDER,
            request: { messages: [...messages] },
          });
        // As a gateway configured by default: includeAssistant off, so an answer yields no fact of its own.
        await extractAndStore(deps, { apiKeyId: tenant.apiKeyId, sessionId: turn.sessionId, text: turn.content, role });
        progress({ phase: 'replay', done: ++done, total, detail });
      }
    }
  }
}

/** A tenant's turns grouped by session, in the order they were read. */
function sessionsOf(tenant: EvalTenant): EvalMemory[][] {
  const sessions = new Map<unknown, EvalMemory[]>();
  for (const turn of tenant.memories) {
    const session = turn.metadata?.session;
    if (!sessions.has(session)) sessions.set(session, []);
    sessions.get(session)!.push(turn);
  }
  return [...sessions.values()];
}

export interface Evidence {
  /** The evidence turns' texts, whitespace-collapsed. */
  turns: string[];
  /** The answer's words (case-folded letter and digit runs); empty without an answer. */
  answerWords: string[];
}

const collapse = (text: string) => text.replace(/\s+/gu, ' ').trim();
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function evidenceOf(question: EvalQuestion, tenant: EvalTenant): Evidence {
  return {
    turns: tenant.memories.filter((m) => question.relevant.has(m.key)).map((m) => collapse(m.content)),
    answerWords: [...new Set(words(question.answer ?? ''))],
  };
}

/**
 * Whether a memory holds the question's evidence: its content holds an evidence turn's whole text (a turn imported or
 * captured), or it is an extracted fact whose words include every word of the answer.
 */
export function holdsEvidence(memory: Pick<Memory, 'content' | 'metadata'>, evidence: Evidence): boolean {
  const content = collapse(memory.content);
  if (evidence.turns.some((turn) => content.includes(turn))) return true;
  if (memory.metadata.source !== 'extraction' || evidence.answerWords.length === 0) return false;
  const factWords = new Set(words(content));
  return evidence.answerWords.every((w) => factWords.has(w));
}

interface Outcome {
  /** Whether any memory stored for the question's key holds evidence: what retrieval could find at best. */
  inStore: boolean;
  /** 1-based rank of the first memory with evidence in retrieve's list, or null. */
  firstHit: number | null;
  inBlock: boolean;
  tokens: number;
}

/** The question asked as a new chat through the gateway (the injected block), and through retrieve (the ranked list). */
async function ask(
  services: Services,
  question: EvalQuestion,
  evidence: Evidence,
  o: { ks: number[]; maxTokens: number },
): Promise<{ outcome: Omit<Outcome, 'inStore'>; ranked: RetrievedMemory[]; block: RetrievedMemory[] }> {
  const deps = question.asOf === null ? services : { ...services, now: () => question.asOf! };
  const ranked = await retrieve(
    deps,
    { apiKeyId: question.apiKeyId, query: question.query, maxTokens: o.maxTokens, limit: Math.max(...o.ks) },
    { record: false },
  );
  const index = ranked.items.findIndex((item) => holdsEvidence(item.memory, evidence));
  const injected = await injectMemory(deps, {
    apiKeyId: question.apiKeyId,
    provider: PROVIDER,
    request: { messages: [{ role: 'user', content: question.query }] },
  });
  const block = injected.retrieval?.items ?? [];
  const outcome = {
    firstHit: index === -1 ? null : index + 1,
    inBlock: block.some((item) => holdsEvidence(item.memory, evidence)),
    tokens: injected.retrieval?.tokensUsed ?? 0,
  };
  return { outcome, ranked: ranked.items, block };
}

function aggregate(group: string, outcomes: readonly Outcome[], ks: readonly number[]): GatewayMetrics {
  const n = outcomes.length;
  const mean = (f: (o: Outcome) => number) => (n === 0 ? 0 : outcomes.reduce((s, o) => s + f(o), 0) / n);
  const hitAt: Record<number, number> = {};
  for (const k of ks) hitAt[k] = mean((o) => (o.firstHit !== null && o.firstHit <= k ? 1 : 0));
  const share = (f: (o: Outcome) => boolean) => mean((o) => (f(o) ? 1 : 0));
  return { group, questions: n, inStore: share((o) => o.inStore), hitAt, inBlock: share((o) => o.inBlock), tokens: mean((o) => o.tokens) };
}

function byType(questions: readonly EvalQuestion[], outcomes: readonly Outcome[], ks: readonly number[]): GatewayMetrics[] {
  return byQuestionType(questions, outcomes).map(([type, group]) => aggregate(type, group, ks));
}

// ---------------------------------------------------------------------------------------------
// Output

const MODE_LABEL: Record<GatewayMode, string> = {
  direct: 'direct import (one memory per turn)',
  OFF: 'gateway, capture OFF (facts only)',
  USER: 'gateway, capture USER',
  ALL: 'gateway, capture ALL',
};

/** A row's label: its mode, and whether facts superseded older ones when both were run. */
const label = (row: GatewayRow, rows: readonly GatewayRow[]) =>
  row.mode === 'direct' || rows.every((r) => r.supersession === 'on')
    ? MODE_LABEL[row.mode]
    : `${MODE_LABEL[row.mode]}, supersession ${row.supersession}`;

/**
 * The report as Markdown: the overall table with storage, one row per question type and mode, and the knowledge-update
 * questions' own measures when there are some.
 */
export function formatGatewayReport(r: GatewayReport): string {
  const pct = (x: number) => x.toFixed(3);
  const int = (n: number) => Math.round(n).toLocaleString('en-US');
  const perThousand = (n: number, turns: number) => (turns === 0 ? '–' : int((n * 1000) / turns));
  const skipped = Object.entries(r.skipped).map(([why, n]) => `${why}: ${n}`);
  const metrics = (m: GatewayMetrics) =>
    `${pct(m.inStore)} | ${r.ks.map((k) => pct(m.hitAt[k] ?? 0)).join(' | ')} | ${pct(m.inBlock)} | ${int(m.tokens)}`;
  const kHeads = r.ks.map((k) => `R@${k}`).join(' | ');
  const kRule = r.ks.map(() => '---:|').join('');
  const lines = [
    `Through the gateway: ${r.dataset}, ${int(r.questions)} questions${skipped.length > 0 ? ` (skipped: ${skipped.join('; ')})` : ''}; ` +
      `block budget ${int(r.blockMaxTokens)} tokens, retrieve budget ${int(r.maxTokens)} tokens`,
    ...r.notes.map((note) => `note: ${note}`),
    '',
    `| memories from | stored | ${kHeads} | in block | tokens injected | memories / 1,000 turns | KB / 1,000 turns |`,
    `|---|---:|${kRule}---:|---:|---:|---:|`,
    ...r.rows.map(
      (row) =>
        `| ${label(row, r.rows)} | ${metrics(row.overall)} | ${perThousand(row.stored.memories, row.turns)} | ` +
        `${row.turns === 0 ? '–' : ((row.stored.bytes / row.turns) * (1000 / 1024)).toFixed(0)} |`,
    ),
    '',
    `| question type | memories from | stored | ${kHeads} | in block | tokens injected |`,
    `|---|---|---:|${kRule}---:|---:|`,
  ];
  const types = r.rows[0]?.byType.map((t) => t.group) ?? [];
  for (const type of types) {
    for (const row of r.rows) {
      const m = row.byType.find((t) => t.group === type)!;
      lines.push(`| ${type} (${int(m.questions)}) | ${label(row, r.rows)} | ${metrics(m)} |`);
    }
  }
  const updates = r.rows.filter((row) => row.updates !== null);
  if (updates.length > 0) {
    lines.push(
      '',
      `${KNOWLEDGE_UPDATE} questions about the current value, with evidence at two moments (${int(updates[0]!.updates!.questions)}):`,
      '',
      '| memories from | latest in block, earlier not | latest in block | earlier in block | R@1 latest | MRR latest |',
      '|---|---:|---:|---:|---:|---:|',
      ...updates.map((row) => {
        const u = row.updates!;
        return `| ${label(row, r.rows)} | ${pct(u.latestOnly)} | ${pct(u.latestInBlock)} | ${pct(u.earlierInBlock)} | ${pct(u.r1)} | ${pct(u.mrr)} |`;
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}
