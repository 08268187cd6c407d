import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { badInput, notFound } from '../errors.ts';
import { aggregate, score } from '../retrieval/rankingMetrics.ts';
import { retrieve } from '../retrieval/retrieval.service.ts';
import type { RetrievalDeps } from '../retrieval/retrieval.ts';
import { DRAFT_SETTING_NAMES, draftOver, type Settings, type SettingsDraft } from '../settings/settings.service.ts';
import { apiKeyIdSchema, parseInput } from '../validation.ts';
import * as repo from './evaluation.repository.ts';
import { type EvaluationQuestion, evaluationQuestions, evaluationSet } from './evaluationSets.service.ts';

/**
 * Evaluation runs: every question of a set asked of retrieval, as the gateway would ask it (the memories it would
 * inject, in order), with the saved settings or a draft of them, and scored against the memories that should have been
 * found. A run is dry: retrieve with record off, so no access count, statistic or injection log entry is written, and a
 * draft is read by this run alone (settings.service.ts, draftOver). The run is kept with each question's result, so two
 * runs can be compared question by question after the questions change.
 */

/** The cut-offs of hit@k; the largest is how many memories each question asks for. */
export const RUN_KS = [1, 5, 10] as const;

export type QuestionOutcome = 'HIT' | 'MISSED' | 'EXPECTED_GONE';

/** One question's result in a run, as it was asked then. */
export interface QuestionResult {
  questionId: string;
  question: string;
  expected: string[];
  /** Expected memories deleted before the run: scored without them. */
  gone: string[];
  /** EXPECTED_GONE: every expected memory was deleted, so the question is left out of the metrics. */
  outcome: QuestionOutcome;
  /** 1-based place of the first expected memory among those injected, or null. */
  firstHit: number | null;
  /** Share of the expected memories still there that were injected. */
  evidenceRecall: number;
  /** Ids of the memories injected, in order. */
  found: string[];
  tokens: number;
  ms: number;
}

export interface RunMetrics {
  /** Questions scored (those whose expected memories all are gone are not). */
  scored: number;
  /** Questions left out because every memory they expect was deleted. */
  expectedGone: number;
  hitAt1: number;
  hitAt5: number;
  hitAt10: number;
  mrr: number;
  /** Mean share of a question's expected memories that were injected. */
  evidenceRecall: number;
  /** Mean tokens of the memory block over the scored questions. */
  meanTokens: number;
  /** Median time of one retrieval, in milliseconds. */
  p50Ms: number;
}

export interface RunSettings {
  /** What the draft changed; null: the run used the saved settings. */
  draft: SettingsDraft | null;
  /** The settings of retrieval that the run used, draft applied. */
  used: Pick<Settings, (typeof DRAFT_SETTING_NAMES)[number]>;
}

export interface EvaluationRun {
  id: string;
  setId: string;
  at: Date;
  settings: RunSettings;
  metrics: RunMetrics;
  results: QuestionResult[];
}

export type Change = 'NEWLY_HIT' | 'NEWLY_MISSED' | 'BETTER' | 'WORSE';

export interface QuestionChange {
  questionId: string;
  question: string;
  change: Change;
  before: number | null;
  after: number | null;
}

export interface RunComparison {
  before: EvaluationRun;
  after: EvaluationRun;
  /** after − before, per metric. */
  delta: Omit<RunMetrics, 'scored' | 'expectedGone'>;
  /** Questions scored in both runs whose place changed (a question only one run asked is not listed). */
  changes: QuestionChange[];
}

type Deps = RetrievalDeps;

const runIdSchema = z.string().regex(/^[1-9][0-9]{0,14}$/, 'runId must be the id of an evaluation run');

/** Where a run is: questions asked so far, of how many; the run itself once it is kept. */
export interface RunProgress {
  done: number;
  total: number;
  run: EvaluationRun | null;
}

type RunInput = { apiKeyId: string; setId: string; settingsDraft?: SettingsDraft | null };

/** Asks every question of the set, with the saved settings or with a draft over them, and keeps the run. */
export async function runEvaluation(deps: Deps, input: RunInput): Promise<EvaluationRun> {
  let last: RunProgress | null = null;
  for await (const step of evaluationSteps(deps, input)) last = step;
  return last!.run!;
}

/**
 * The same run, reported as it goes: before the first question, after each, and with the run once it is kept. A run
 * left before its end (the caller stops reading) is not kept.
 */
export async function* evaluationSteps(deps: Deps, input: RunInput): AsyncGenerator<RunProgress> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  const questions = await evaluationQuestions(deps, { apiKeyId: set.apiKeyId, setId: set.id });
  if (questions.length === 0) throw badInput(`the set "${set.name}" has no questions to run`);
  const over = input.settingsDraft ? draftOver(deps.settings, input.settingsDraft) : null;
  const draft = over && Object.keys(over.changes).length > 0 ? over.changes : null;
  const settings = over && draft ? over : deps.settings;
  const asked: Deps = settings === deps.settings ? deps : { ...deps, settings, rerank: deps.rerank?.withSettings(settings) };
  const used = await settings.get();
  const total = questions.length;
  const results: QuestionResult[] = [];
  yield { done: 0, total, run: null };
  for (const q of questions) {
    results.push(await ask(asked, set.apiKeyId, q));
    yield { done: results.length, total, run: null };
  }
  const runSettings: RunSettings = {
    draft,
    used: Object.fromEntries(DRAFT_SETTING_NAMES.map((name) => [name, used[name]])) as RunSettings['used'],
  };
  const id = await repo.insertRun(deps.db, {
    set_id: Number(set.id),
    created_at: deps.now(),
    settings: JSON.stringify(runSettings),
    results: JSON.stringify(results),
  });
  yield { done: total, total, run: await evaluationRun(deps, { apiKeyId: set.apiKeyId, runId: String(id) }) };
}

/** One question asked dry, as the gateway would ask it, and scored against the expected memories still there. */
async function ask(deps: Deps, apiKeyId: string, q: EvaluationQuestion): Promise<QuestionResult> {
  const started = performance.now();
  const result = await retrieve(deps, { apiKeyId, query: q.question, limit: Math.max(...RUN_KS) }, { record: false });
  const ms = performance.now() - started;
  const expected = q.expected.map((m) => m.id);
  const present = expected.filter((id) => !q.gone.includes(id));
  const found = result.items.map((item) => item.memory.id);
  const { firstHit, evidenceRecall } =
    present.length > 0 ? score({ relevant: new Set(present) }, found, RUN_KS) : { firstHit: null, evidenceRecall: 0 };
  return {
    questionId: q.id,
    question: q.question,
    expected,
    gone: q.gone,
    outcome: present.length === 0 ? 'EXPECTED_GONE' : firstHit === null ? 'MISSED' : 'HIT',
    firstHit,
    evidenceRecall,
    found,
    tokens: result.tokensUsed,
    ms,
  };
}

/** The set's runs, newest first. */
export async function evaluationRuns(deps: Deps, input: { apiKeyId: string; setId: string }): Promise<EvaluationRun[]> {
  const set = await evaluationSet(deps, input.apiKeyId, input.setId);
  return (await repo.runsOfSet(deps.db, Number(set.id))).map(toRun);
}

export async function evaluationRun(deps: Deps, input: { apiKeyId: string; runId: string }): Promise<EvaluationRun> {
  const key = parseInput(apiKeyIdSchema, input.apiKeyId);
  const id = Number(parseInput(runIdSchema, input.runId));
  const row = await repo.runOfKey(deps.db, key, id);
  if (!row) throw notFound(`API key "${key}" has no evaluation run ${input.runId}`);
  return toRun(row);
}

/** How the second run differs from the first: per metric, and the questions whose place changed. */
export async function compareEvaluationRuns(
  deps: Deps,
  input: { apiKeyId: string; beforeRunId: string; afterRunId: string },
): Promise<RunComparison> {
  const before = await evaluationRun(deps, { apiKeyId: input.apiKeyId, runId: input.beforeRunId });
  const after = await evaluationRun(deps, { apiKeyId: input.apiKeyId, runId: input.afterRunId });
  if (before.setId !== after.setId) throw badInput('runs of different sets cannot be compared: their questions differ');
  const earlier = new Map(before.results.map((r) => [r.questionId, r] as const));
  const changes: QuestionChange[] = [];
  for (const now of after.results) {
    const then = earlier.get(now.questionId);
    if (!then || then.outcome === 'EXPECTED_GONE' || now.outcome === 'EXPECTED_GONE' || then.firstHit === now.firstHit) continue;
    changes.push({
      questionId: now.questionId,
      question: now.question,
      change: changeOf(then.firstHit, now.firstHit),
      before: then.firstHit,
      after: now.firstHit,
    });
  }
  const m = (f: (r: RunMetrics) => number) => f(after.metrics) - f(before.metrics);
  return {
    before,
    after,
    delta: {
      hitAt1: m((r) => r.hitAt1),
      hitAt5: m((r) => r.hitAt5),
      hitAt10: m((r) => r.hitAt10),
      mrr: m((r) => r.mrr),
      evidenceRecall: m((r) => r.evidenceRecall),
      meanTokens: m((r) => r.meanTokens),
      p50Ms: m((r) => r.p50Ms),
    },
    changes,
  };
}

function changeOf(before: number | null, after: number | null): Change {
  if (before === null) return 'NEWLY_HIT';
  if (after === null) return 'NEWLY_MISSED';
  return after < before ? 'BETTER' : 'WORSE';
}

/** The metrics of a run's results: hit@k and MRR by rankingMetrics.ts, over the questions that could be scored. */
export function runMetrics(results: readonly QuestionResult[]): RunMetrics {
  const scored = results.filter((r) => r.outcome !== 'EXPECTED_GONE');
  const row = aggregate('all', scored, RUN_KS);
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    scored: scored.length,
    expectedGone: results.length - scored.length,
    hitAt1: row.hitAt[1]!,
    hitAt5: row.hitAt[5]!,
    hitAt10: row.hitAt[10]!,
    mrr: row.mrr,
    evidenceRecall: row.evidenceRecall,
    meanTokens: scored.length === 0 ? 0 : scored.reduce((sum, r) => sum + r.tokens, 0) / scored.length,
    p50Ms: median(times),
  };
}

function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function toRun(row: { id: number; set_id: number; created_at: number; settings: string; results: string }): EvaluationRun {
  const results = JSON.parse(row.results) as QuestionResult[];
  return {
    id: String(row.id),
    setId: String(row.set_id),
    at: new Date(row.created_at),
    settings: JSON.parse(row.settings) as RunSettings,
    metrics: runMetrics(results),
    results,
  };
}
