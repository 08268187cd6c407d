/**
 * Readers for the conversational-memory data sets the eval understands. They only read: the data
 * stays where it is (outside the repo) and is turned into memories and questions in memory.
 *
 * - LongMemEval (oracle, `_s`, `_m`): a folder of `.json` files, each one question object or an array of them.
 * - BEIR (e.g. SciFact): `corpus.jsonl[.gz]`, `queries[.test].jsonl`, `qrels/test.tsv`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';

export interface EvalMemory {
  /** Opaque and unique inside its API key; see opaqueKey. */
  key: string;
  content: string;
  sessionId?: string;
  createdAt?: Date;
  metadata?: Record<string, unknown>;
}

/** The memories of one API key. */
export interface EvalTenant {
  apiKeyId: string;
  memories: EvalMemory[];
}

export interface EvalQuestion {
  id: string;
  /** e.g. LongMemEval's question_type; null when the data set has none. */
  type: string | null;
  query: string;
  apiKeyId: string;
  /** The moment the question is asked (ms); retrieval runs as of then. null: now. */
  asOf: number | null;
  /** Keys of the memories that count as a hit. Never empty. */
  relevant: ReadonlySet<string>;
  /** The expected answer (LongMemEval's answer); null when the data set has none. */
  answer: string | null;
}

export interface EvalDataset {
  name: string;
  format: 'longmemeval' | 'beir';
  /** One line on how memories and hits were built, printed with the results. */
  description: string;
  tenants: EvalTenant[];
  questions: EvalQuestion[];
  /** Questions read but not evaluated, by reason. */
  skipped: Record<string, number>;
  notes: string[];
}

export interface LoadOptions {
  /** Read only the first N questions (in file-name order); skipped ones count towards N. */
  limit?: number | null;
  onProgress?: (done: number, total: number) => void;
}

export class UnsupportedDataError extends Error {}

/**
 * A key that yields a single FTS token no question can contain. Keys are indexed for keyword search
 * (weight 0.4), so a readable key such as "session_3:turn_7" would let numbers and words of the key
 * score, and LongMemEval's session ids ("answer_…") would even leak the label.
 */
export function opaqueKey(prefix: string, ...parts: (string | number)[]): string {
  return `${prefix}${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 20)}`;
}

export function detectFormat(dir: string): EvalDataset['format'] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UnsupportedDataError(`${dir} is not a folder`);
  const names = readdirSync(dir);
  if (names.includes('corpus.jsonl.gz') || names.includes('corpus.jsonl')) return 'beir';
  const json = names.filter((n) => n.endsWith('.json')).sort();
  if (json.length > 0) {
    const first = firstQuestion(JSON.parse(readFileSync(path.join(dir, json[0]!), 'utf8')));
    if (first !== null && lmeQuestionSchema.safeParse(first).success) return 'longmemeval';
    throw new UnsupportedDataError(`${dir}: ${json[0]} is JSON but not a LongMemEval question (no haystack_sessions)`);
  }
  throw new UnsupportedDataError(`${dir}: neither LongMemEval (*.json questions) nor BEIR (corpus.jsonl[.gz], queries, qrels) data`);
}

export function loadDataset(dir: string, options: LoadOptions = {}): EvalDataset {
  const format = detectFormat(dir);
  return format === 'beir' ? loadBeir(dir, options) : loadLongMemEval(dir, options);
}

// ---------------------------------------------------------------------------------------------
// LongMemEval

const lmeTurnSchema = z.object({
  role: z.string(),
  content: z.string(),
  has_answer: z.boolean().nullish(),
});

const lmeQuestionSchema = z.object({
  question_id: z.coerce.string(),
  question_type: z.string().nullish(),
  question: z.string(),
  question_date: z.string().nullish(),
  answer: z.union([z.string(), z.number()]).nullish(),
  haystack_dates: z.array(z.string()).nullish(),
  haystack_session_ids: z.array(z.coerce.string()).nullish(),
  haystack_sessions: z.array(z.array(lmeTurnSchema)),
});
type LmeQuestion = z.output<typeof lmeQuestionSchema>;

function firstQuestion(parsed: unknown): unknown {
  return Array.isArray(parsed) ? (parsed[0] ?? null) : parsed;
}

/** "2023/05/28 (Sun) 16:07" → ms since the epoch, read as UTC; null if it does not look like that. */
export function parseLmeDate(text: string | null | undefined): number | null {
  const m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([^)]*\))?(?:\s+(\d{1,2}):(\d{2}))?/.exec(text?.trim() ?? '');
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  return Number.isNaN(ms) ? null : ms;
}

/**
 * One memory per turn, user and assistant alike: the evidence is turn-level (`has_answer`) and some
 * of it sits in assistant turns (the single-session-assistant questions ask what the assistant said),
 * so dropping assistant turns would make those questions unanswerable by construction.
 */
function loadLongMemEval(dir: string, options: LoadOptions): EvalDataset {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
  const dataset: EvalDataset = {
    name: path.basename(path.resolve(dir)),
    format: 'longmemeval',
    description:
      'LongMemEval: one memory per turn (user and assistant), one API key per question; sessionId = haystack session id, ' +
      'createdAt = session date, retrieval as of question_date; hit = a memory built from a turn with has_answer: true',
    tenants: [],
    questions: [],
    skipped: {},
    notes: [],
  };
  const limit = options.limit ?? Infinity;
  options.onProgress?.(0, files.length);
  let read = 0;
  let emptyTurns = 0;
  let undated = 0;
  let filesRead = 0;
  const seenIds = new Set<string>();
  outer: for (const [i, file] of files.entries()) {
    if (read >= limit) break;
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    filesRead = i + 1;
    for (const raw of Array.isArray(parsed) ? parsed : [parsed]) {
      if (read >= limit) break outer;
      read++;
      const result = lmeQuestionSchema.safeParse(raw);
      if (!result.success) {
        skip(dataset, `not a LongMemEval question (${file})`);
        continue;
      }
      const q = result.data;
      // A question id repeated across files (e.g. oracle and _s side by side) would share a tenant.
      const apiKeyId = uniqueId(`lme-${q.question_id}`, seenIds);
      const built = lmeTenant(q, apiKeyId);
      emptyTurns += built.emptyTurns;
      undated += built.undatedSessions;
      if (built.relevant.size === 0) {
        skip(dataset, q.question_id.endsWith('_abs') ? 'no has_answer turn (abstention question)' : 'no has_answer turn');
        continue;
      }
      dataset.tenants.push({ apiKeyId, memories: built.memories });
      dataset.questions.push({
        id: q.question_id,
        type: q.question_type ?? null,
        query: q.question,
        apiKeyId,
        asOf: built.asOf,
        relevant: built.relevant,
        answer: q.answer === null || q.answer === undefined ? null : String(q.answer),
      });
    }
    options.onProgress?.(i + 1, files.length);
  }
  // Stopped early by the limit: the rest is never read, so the files read are the whole job.
  if (filesRead < files.length) options.onProgress?.(filesRead, filesRead);
  if (emptyTurns > 0) dataset.notes.push(`${emptyTurns} empty turns left out (a memory must have content)`);
  if (undated > 0) dataset.notes.push(`${undated} sessions without a readable date: their turns are stored as written now`);
  return dataset;
}

function lmeTenant(q: LmeQuestion, apiKeyId: string) {
  const memories: EvalMemory[] = [];
  const relevant = new Set<string>();
  let emptyTurns = 0;
  let undatedSessions = 0;
  const sessionDates: number[] = [];
  q.haystack_sessions.forEach((turns, s) => {
    const sessionId = q.haystack_session_ids?.[s] ?? `session-${s}`;
    const date = parseLmeDate(q.haystack_dates?.[s]);
    if (date === null) undatedSessions++;
    else sessionDates.push(date);
    turns.forEach((turn, t) => {
      if (turn.content.trim() === '') {
        emptyTurns++;
        return;
      }
      const key = opaqueKey('lme', apiKeyId, s, t);
      memories.push({
        key,
        content: turn.content,
        sessionId,
        ...(date === null ? {} : { createdAt: new Date(date) }),
        metadata: { role: turn.role, session: s, turn: t },
      });
      if (turn.has_answer === true) relevant.add(key);
    });
  });
  // Asked at question_date; without one, just after the last session.
  const asOf = parseLmeDate(q.question_date) ?? (sessionDates.length > 0 ? Math.max(...sessionDates) + 60_000 : null);
  return { memories, relevant, asOf, emptyTurns, undatedSessions };
}

// ---------------------------------------------------------------------------------------------
// BEIR

const beirDocSchema = z.object({ _id: z.coerce.string(), title: z.string().nullish(), text: z.string() });
const beirQuerySchema = z.object({ _id: z.coerce.string(), text: z.string() });

function readJsonl(file: string): unknown[] {
  const buf = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

function firstExisting(dir: string, names: string[]): string | null {
  for (const n of names) if (existsSync(path.join(dir, n))) return path.join(dir, n);
  return null;
}

/** The whole corpus under one API key; each query with a positive judgment is a question; a hit is a judged document. */
function loadBeir(dir: string, options: LoadOptions): EvalDataset {
  const corpusFile = firstExisting(dir, ['corpus.jsonl.gz', 'corpus.jsonl']);
  const queriesFile = firstExisting(dir, ['queries.test.jsonl', 'queries.jsonl']);
  const qrelsFile = firstExisting(dir, ['qrels/test.tsv']);
  if (!corpusFile || !queriesFile || !qrelsFile) {
    throw new UnsupportedDataError(`${dir}: BEIR layout needs corpus.jsonl[.gz], queries[.test].jsonl and qrels/test.tsv`);
  }
  const name = path.basename(path.resolve(dir));
  const apiKeyId = `beir-${name}`;
  const dataset: EvalDataset = {
    name,
    format: 'beir',
    description: `BEIR: one memory per document ("title\\ntext"), the whole corpus under one API key, created now; hit = a document judged relevant in qrels/test.tsv`,
    tenants: [],
    questions: [],
    skipped: {},
    notes: [],
  };

  options.onProgress?.(0, 3);
  const qrels = new Map<string, Set<string>>();
  const lines = readFileSync(qrelsFile, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    const cols = line.trim().split('\t');
    if (cols.length < 3 || (i === 0 && cols[0] === 'query-id')) continue;
    const [qid, docId, score] = cols as [string, string, string];
    if (Number(score) <= 0) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Set());
    qrels.get(qid)!.add(docId);
  }
  options.onProgress?.(1, 3);

  const docKey = (id: string) => opaqueKey('doc', id);
  const memories: EvalMemory[] = [];
  const docIds = new Set<string>();
  for (const raw of readJsonl(corpusFile)) {
    const doc = beirDocSchema.parse(raw);
    docIds.add(doc._id);
    const content = doc.title ? `${doc.title}\n${doc.text}` : doc.text;
    if (content.trim() === '') continue;
    memories.push({ key: docKey(doc._id), content, metadata: { docId: doc._id } });
  }
  dataset.tenants.push({ apiKeyId, memories });
  options.onProgress?.(2, 3);

  const limit = options.limit ?? Infinity;
  let read = 0;
  let missingDocs = 0;
  for (const raw of readJsonl(queriesFile)) {
    const q = beirQuerySchema.parse(raw);
    const judged = qrels.get(q._id);
    if (!judged) continue; // e.g. train queries in a shared queries.jsonl: not part of this split
    if (read >= limit) break;
    read++;
    const present = [...judged].filter((d) => docIds.has(d));
    missingDocs += judged.size - present.length;
    if (present.length === 0) {
      skip(dataset, 'no judged document in the corpus');
      continue;
    }
    dataset.questions.push({
      id: q._id,
      type: null,
      query: q.text,
      apiKeyId,
      asOf: null,
      relevant: new Set(present.map(docKey)),
      answer: null,
    });
  }
  if (missingDocs > 0) dataset.notes.push(`${missingDocs} judged documents are not in the corpus`);
  options.onProgress?.(3, 3);
  return dataset;
}

function skip(dataset: EvalDataset, reason: string) {
  dataset.skipped[reason] = (dataset.skipped[reason] ?? 0) + 1;
}

function uniqueId(id: string, seen: Set<string>): string {
  let candidate = id;
  for (let n = 2; seen.has(candidate); n++) candidate = `${id}~${n}`;
  seen.add(candidate);
  return candidate;
}

/**
 * The moment a turn was said: its session's date (LongMemEval's haystack_dates, the turn's createdAt) plus a second per
 * turn, so the turns of a session keep their order; null for an undated session (then the clock's now). This is the
 * value to pass as the extract input's occurredAt once it has one.
 */
export function timeOf(turn: EvalMemory): number | null {
  if (turn.createdAt === undefined) return null;
  return turn.createdAt.getTime() + Number(turn.metadata?.turn ?? 0) * 1000;
}
