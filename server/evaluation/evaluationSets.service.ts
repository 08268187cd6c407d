import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { badInput, notFound } from '../errors.ts';
import { apiKeyIdSchema, holdsNul, identifier, LIMITS, nulRefused, parseInput, text } from '../validation.ts';
import * as repo from './evaluation.repository.ts';

/**
 * Evaluation sets: per API key, named sets of labelled questions, each a question and the memories that should be
 * found for it. An admin keeps them to measure retrieval on the key's own questions (evaluationRuns.service.ts). They
 * name memories by id; a memory deleted since is reported as gone, never silently dropped. Every operation names the
 * key, and a set or question of another key is not found: one key's sets are never reached through another.
 */

export const EVALUATION_LIMITS = {
  nameChars: 100,
  questionChars: 2_000,
  expectedPerQuestion: 20,
  questionsPerSet: 200,
  /** Lines of one JSONL import, blank ones included. */
  importLines: 200,
} as const;

export interface EvaluationSet {
  id: string;
  apiKeyId: string;
  name: string;
  createdAt: Date;
  questions: number;
  runs: number;
}

/** An expected memory as it is now: null content when it was deleted since the question named it. */
export interface ExpectedMemory {
  id: string;
  key: string | null;
  content: string | null;
}

export interface EvaluationQuestion {
  id: string;
  setId: string;
  question: string;
  expected: ExpectedMemory[];
  /** Ids of expected memories that no longer exist: the question is scored without them, or not at all. */
  gone: string[];
}

export interface ImportLineError {
  line: number;
  message: string;
}

export interface ImportReport {
  imported: EvaluationQuestion[];
  errors: ImportLineError[];
}

type Deps = { db: Db; now: () => number };

const refSchema = identifier('an expected memory', LIMITS.keyChars).refine((ref) => !holdsNul(ref), nulRefused('an expected memory'));
const setIdSchema = z.string().regex(/^[1-9][0-9]{0,14}$/, 'setId must be the id of an evaluation set');
const questionIdSchema = z.string().regex(/^[1-9][0-9]{0,14}$/, 'questionId must be the id of a question');
const nameSchema = identifier('name', EVALUATION_LIMITS.nameChars);
const questionSchema = text('question')
  .overwrite((q) => q.trim())
  .min(1, 'question must not be empty')
  .max(EVALUATION_LIMITS.questionChars, `question is longer than ${EVALUATION_LIMITS.questionChars} characters`)
  .refine((q) => !holdsNul(q), nulRefused('question'));
const expectedSchema = z
  .array(refSchema, { error: 'expected must be a list of memory ids or keys' })
  .min(1, 'expected must name at least one memory')
  .max(EVALUATION_LIMITS.expectedPerQuestion, `expected names at most ${EVALUATION_LIMITS.expectedPerQuestion} memories`);
const labelledSchema = z.object({ question: questionSchema, expected: expectedSchema });

export async function evaluationSets(deps: Deps, apiKeyId: string): Promise<EvaluationSet[]> {
  const key = parseInput(apiKeyIdSchema, apiKeyId);
  const rows = await repo.setsOfKey(deps.db, key);
  return rows.map((r) => ({
    id: String(r.id),
    apiKeyId: r.api_key_id,
    name: r.name,
    createdAt: new Date(r.created_at),
    questions: Number(r.questions),
    runs: Number(r.runs),
  }));
}

/** The key's set with this id; NOT_FOUND when it has none (another key's set included). */
export async function evaluationSet(deps: Deps, apiKeyId: string, setId: string): Promise<EvaluationSet> {
  const id = Number(parseInput(setIdSchema, setId));
  const found = (await evaluationSets(deps, apiKeyId)).find((s) => s.id === String(id));
  if (!found) throw notFound(`API key "${apiKeyId.trim()}" has no evaluation set ${setId}`);
  return found;
}

export async function createEvaluationSet(deps: Deps, input: { apiKeyId: string; name: string }): Promise<EvaluationSet> {
  const valid = parseInput(z.object({ apiKeyId: apiKeyIdSchema, name: nameSchema }), input);
  if (await repo.setNamed(deps.db, valid.apiKeyId, valid.name))
    throw badInput(`API key "${valid.apiKeyId}" already has a set named "${valid.name}"`);
  const id = await repo.insertSet(deps.db, { api_key_id: valid.apiKeyId, name: valid.name, created_at: deps.now() });
  return evaluationSet(deps, valid.apiKeyId, String(id));
}

export async function renameEvaluationSet(deps: Deps, input: { apiKeyId: string; setId: string; name: string }): Promise<EvaluationSet> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  const name = parseInput(nameSchema, input.name);
  const taken = await repo.setNamed(deps.db, set.apiKeyId, name);
  if (taken && String(taken.id) !== set.id) throw badInput(`API key "${set.apiKeyId}" already has a set named "${name}"`);
  await repo.renameSet(deps.db, Number(set.id), name);
  return { ...set, name };
}

/** Deletes the set with its questions and runs; returns the set as it was. */
export async function deleteEvaluationSet(deps: Deps, input: { apiKeyId: string; setId: string }): Promise<EvaluationSet> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  await repo.deleteSet(deps.db, Number(set.id));
  return set;
}

export async function evaluationQuestions(deps: Deps, input: { apiKeyId: string; setId: string }): Promise<EvaluationQuestion[]> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  return withMemories(deps.db, set.apiKeyId, await repo.questionsOfSet(deps.db, Number(set.id)));
}

/** Adds one question; its expected memories are named by id or key, and each must be a memory of the key. */
export async function addEvaluationQuestion(
  deps: Deps,
  input: { apiKeyId: string; setId: string; question: string; expected: readonly string[] },
): Promise<EvaluationQuestion> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  await roomFor(deps.db, set, 1);
  const valid = parseInput(labelledSchema, input);
  const expected = await resolveExpected(deps.db, set.apiKeyId, valid.expected);
  const [id] = await repo.insertQuestions(deps.db, [
    { set_id: Number(set.id), question: valid.question, expected: JSON.stringify(expected), created_at: deps.now() },
  ]);
  return question(deps.db, set.apiKeyId, id!);
}

export async function editEvaluationQuestion(
  deps: Deps,
  input: { apiKeyId: string; questionId: string; question: string; expected: readonly string[] },
): Promise<EvaluationQuestion> {
  const key = parseInput(apiKeyIdSchema, input.apiKeyId);
  const id = await questionIdOfKey(deps.db, key, input.questionId);
  const valid = parseInput(labelledSchema, input);
  const expected = await resolveExpected(deps.db, key, valid.expected);
  await repo.updateQuestion(deps.db, id, { question: valid.question, expected: JSON.stringify(expected) });
  return question(deps.db, key, id);
}

/** Removes one question; returns it as it was. Runs that asked it keep their result for it. */
export async function removeEvaluationQuestion(deps: Deps, input: { apiKeyId: string; questionId: string }): Promise<EvaluationQuestion> {
  const key = parseInput(apiKeyIdSchema, input.apiKeyId);
  const id = await questionIdOfKey(deps.db, key, input.questionId);
  const removed = await question(deps.db, key, id);
  await repo.deleteQuestion(deps.db, id);
  return removed;
}

/**
 * Adds the questions of a JSONL text, one `{"question": ..., "expected": [memory id or key, ...]}` per line (blank
 * lines skipped). A line that does not parse or names a memory the key does not have is reported with its number and
 * the others are added all the same.
 */
export async function importEvaluationQuestions(
  deps: Deps,
  input: { apiKeyId: string; setId: string; jsonl: string },
): Promise<ImportReport> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  const lines = input.jsonl.split(/\r?\n/);
  if (lines.length > EVALUATION_LIMITS.importLines)
    throw badInput(`an import holds at most ${EVALUATION_LIMITS.importLines} lines, not ${lines.length}`);
  const errors: ImportLineError[] = [];
  const rows: { question: string; expected: string[] }[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      const valid = parseInput(labelledSchema, parseLine(line));
      rows.push({ question: valid.question, expected: await resolveExpected(deps.db, set.apiKeyId, valid.expected) });
    } catch (error) {
      errors.push({ line: i + 1, message: (error as Error).message });
    }
  }
  await roomFor(deps.db, set, rows.length);
  const now = deps.now();
  const ids = await repo.insertQuestions(
    deps.db,
    rows.map((r) => ({ set_id: Number(set.id), question: r.question, expected: JSON.stringify(r.expected), created_at: now })),
  );
  const imported = (await evaluationQuestions(deps, { apiKeyId: set.apiKeyId, setId: set.id })).filter((q) => ids.includes(Number(q.id)));
  return { imported, errors };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw badInput('is not a JSON object');
  }
}

async function roomFor(db: Db, set: EvaluationSet, adding: number) {
  const held = await repo.countQuestions(db, Number(set.id));
  if (held + adding > EVALUATION_LIMITS.questionsPerSet) {
    throw badInput(
      `a set holds at most ${EVALUATION_LIMITS.questionsPerSet} questions; "${set.name}" has ${held}, and ${adding} more would pass it`,
    );
  }
}

/** The ids of the memories these refs name (an id, else a key of the key's memories), in order, each once. */
async function resolveExpected(db: Db, apiKeyId: string, refs: readonly string[]): Promise<string[]> {
  const rows = await repo.memoriesByIdOrKey(db, apiKeyId, refs);
  return [
    ...new Set(
      refs.map((ref) => {
        const row = rows.find((r) => r.id === ref) ?? rows.find((r) => r.key === ref);
        if (!row) throw badInput(`API key "${apiKeyId}" has no memory with the id or key "${ref}"`);
        return row.id;
      }),
    ),
  ];
}

async function questionIdOfKey(db: Db, apiKeyId: string, questionId: string): Promise<number> {
  const id = Number(parseInput(questionIdSchema, questionId));
  if (!(await repo.questionOfKey(db, apiKeyId, id))) throw notFound(`API key "${apiKeyId}" has no evaluation question ${questionId}`);
  return id;
}

async function question(db: Db, apiKeyId: string, id: number): Promise<EvaluationQuestion> {
  const row = await repo.questionOfKey(db, apiKeyId, id);
  if (!row) throw notFound(`API key "${apiKeyId}" has no evaluation question ${id}`);
  const [q] = await withMemories(db, apiKeyId, [row]);
  return q!;
}

async function withMemories(
  db: Db,
  apiKeyId: string,
  rows: readonly { id: number; set_id: number; question: string; expected: string }[],
): Promise<EvaluationQuestion[]> {
  const expected = rows.map((r) => JSON.parse(r.expected) as string[]);
  const live = new Map((await repo.memoriesByIdOrKey(db, apiKeyId, [...new Set(expected.flat())])).map((m) => [m.id, m] as const));
  return rows.map((r, i) => ({
    id: String(r.id),
    setId: String(r.set_id),
    question: r.question,
    expected: expected[i]!.map((id) => ({ id, key: live.get(id)?.key ?? null, content: live.get(id)?.content ?? null })),
    gone: expected[i]!.filter((id) => !live.has(id)),
  }));
}
