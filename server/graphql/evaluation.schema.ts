import { forbidden } from '../errors.ts';
import {
  compareEvaluationRuns,
  type EvaluationRun,
  evaluationRuns,
  evaluationSteps,
  type QuestionResult,
  type RunComparison,
  type RunMetrics,
  type RunProgress,
  runEvaluation,
} from '../evaluation/evaluationRuns.service.ts';
import {
  addEvaluationQuestion,
  createEvaluationSet,
  deleteEvaluationSet,
  EVALUATION_LIMITS,
  type EvaluationQuestion,
  type EvaluationSet,
  editEvaluationQuestion,
  evaluationQuestions,
  evaluationSets,
  type ImportReport,
  importEvaluationQuestions,
  removeEvaluationQuestion,
  renameEvaluationSet,
} from '../evaluation/evaluationSets.service.ts';
import { builder } from './builder.ts';
import { StrategyEnum } from './settings.schema.ts';

const ExpectedMemoryRef = builder.simpleObject('EvaluationExpectedMemory', {
  description: 'A memory a question expects, as it is now: key and content are null once it was deleted.',
  fields: (t) => ({ id: t.id(), key: t.string({ nullable: true }), content: t.string({ nullable: true }) }),
});

const QuestionRef = builder.objectRef<EvaluationQuestion>('EvaluationQuestion').implement({
  description: 'A labelled question: the text asked and the memories that should be found for it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    setId: t.exposeID('setId'),
    question: t.exposeString('question'),
    expected: t.field({ type: [ExpectedMemoryRef], resolve: (q) => q.expected }),
    gone: t.exposeIDList('gone', {
      description: 'Expected memories deleted since: a run scores the question without them, or leaves it out when none is left.',
    }),
  }),
});

const SetRef = builder.objectRef<EvaluationSet>('EvaluationSet').implement({
  description: 'A named set of labelled questions of one API key.',
  fields: (t) => ({
    id: t.exposeID('id'),
    apiKeyId: t.exposeString('apiKeyId'),
    name: t.exposeString('name'),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    questionCount: t.exposeInt('questions'),
    runCount: t.exposeInt('runs'),
    questions: t.field({
      type: [QuestionRef],
      description: 'In the order they were added.',
      resolve: (s, _args, ctx) => evaluationQuestions(ctx.services, { apiKeyId: s.apiKeyId, setId: s.id }),
    }),
  }),
});

const OutcomeEnum = builder.enumType('EvaluationOutcome', {
  values: {
    HIT: { description: 'An expected memory was among those injected.' },
    MISSED: { description: 'None was.' },
    EXPECTED_GONE: { description: 'Every expected memory had been deleted: left out of the metrics.' },
  } as const,
});

const ResultRef = builder.objectRef<QuestionResult>('EvaluationQuestionResult').implement({
  description: "One question's result in a run, as the question was then.",
  fields: (t) => ({
    questionId: t.exposeID('questionId'),
    question: t.exposeString('question'),
    expected: t.exposeIDList('expected'),
    gone: t.exposeIDList('gone'),
    outcome: t.expose('outcome', { type: OutcomeEnum }),
    firstHit: t.exposeInt('firstHit', { nullable: true, description: 'Place (from 1) of the first expected memory injected.' }),
    evidenceRecall: t.exposeFloat('evidenceRecall'),
    found: t.exposeIDList('found', { description: 'The memories injected, in order.' }),
    tokens: t.exposeInt('tokens'),
    ms: t.exposeFloat('ms'),
  }),
});

const MetricsRef = builder.objectRef<RunMetrics>('EvaluationMetrics').implement({
  fields: (t) => ({
    scored: t.exposeInt('scored', { description: 'Questions scored.' }),
    expectedGone: t.exposeInt('expectedGone', { description: 'Questions left out: every memory they expect was deleted.' }),
    hitAt1: t.exposeFloat('hitAt1'),
    hitAt5: t.exposeFloat('hitAt5'),
    hitAt10: t.exposeFloat('hitAt10'),
    mrr: t.exposeFloat('mrr', { description: 'Mean reciprocal rank of the first expected memory, 0 when none was injected.' }),
    evidenceRecall: t.exposeFloat('evidenceRecall', { description: "Mean share of a question's expected memories injected." }),
    meanTokens: t.exposeFloat('meanTokens', { description: 'Mean tokens of the memory block.' }),
    p50Ms: t.exposeFloat('p50Ms', { description: 'Median time of one retrieval, in milliseconds.' }),
  }),
});

const DeltaRef = builder.objectRef<RunComparison['delta']>('EvaluationMetricsDelta').implement({
  description: 'The later run less the earlier, per metric.',
  fields: (t) => ({
    hitAt1: t.exposeFloat('hitAt1'),
    hitAt5: t.exposeFloat('hitAt5'),
    hitAt10: t.exposeFloat('hitAt10'),
    mrr: t.exposeFloat('mrr'),
    evidenceRecall: t.exposeFloat('evidenceRecall'),
    meanTokens: t.exposeFloat('meanTokens'),
    p50Ms: t.exposeFloat('p50Ms'),
  }),
});

const RunSettingsRef = builder.objectRef<EvaluationRun['settings']['used']>('EvaluationRunSettings').implement({
  description: 'The settings of retrieval a run used.',
  fields: (t) => ({
    strategy: t.expose('strategy', { type: StrategyEnum }),
    maxTokens: t.exposeInt('maxTokens'),
    fusionVectorShare: t.exposeFloat('fusionVectorShare', { nullable: true }),
    profileBudgetPercent: t.exposeInt('profileBudgetPercent'),
    rerankEnabled: t.exposeBoolean('rerankEnabled'),
    rerankProviderModel: t.exposeString('rerankProviderModel', { nullable: true }),
  }),
});

const RunRef = builder.objectRef<EvaluationRun>('EvaluationRun').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    setId: t.exposeID('setId'),
    at: t.field({ type: 'DateTime', resolve: (r) => r.at }),
    settings: t.field({ type: RunSettingsRef, resolve: (r) => r.settings.used }),
    draft: t.stringList({
      description: 'The settings a draft changed for this run (never saved); empty when it ran with the saved settings.',
      resolve: (r) => Object.keys(r.settings.draft ?? {}),
    }),
    metrics: t.field({ type: MetricsRef, resolve: (r) => r.metrics }),
    results: t.field({ type: [ResultRef], resolve: (r) => r.results }),
  }),
});

const ChangeEnum = builder.enumType('EvaluationChange', {
  values: {
    NEWLY_HIT: { description: 'Missed before, found now.' },
    NEWLY_MISSED: { description: 'Found before, missed now.' },
    BETTER: { description: 'Found both times, higher now.' },
    WORSE: { description: 'Found both times, lower now.' },
  } as const,
});

const QuestionChangeRef = builder.objectRef<RunComparison['changes'][number]>('EvaluationQuestionChange').implement({
  fields: (t) => ({
    questionId: t.exposeID('questionId'),
    question: t.exposeString('question'),
    change: t.expose('change', { type: ChangeEnum }),
    before: t.exposeInt('before', { nullable: true }),
    after: t.exposeInt('after', { nullable: true }),
  }),
});

const ComparisonRef = builder.objectRef<RunComparison>('EvaluationComparison').implement({
  fields: (t) => ({
    before: t.field({ type: RunRef, resolve: (c) => c.before }),
    after: t.field({ type: RunRef, resolve: (c) => c.after }),
    delta: t.field({ type: DeltaRef, resolve: (c) => c.delta }),
    changes: t.field({
      type: [QuestionChangeRef],
      description: 'Questions scored in both runs whose place changed.',
      resolve: (c) => c.changes,
    }),
  }),
});

const ImportErrorRef = builder.simpleObject('EvaluationImportError', {
  fields: (t) => ({ line: t.int(), message: t.string() }),
});

const ImportReportRef = builder.objectRef<ImportReport>('EvaluationImportReport').implement({
  fields: (t) => ({
    imported: t.field({ type: [QuestionRef], resolve: (r) => r.imported }),
    errors: t.field({ type: [ImportErrorRef], description: 'Lines not added, and why; the others were.', resolve: (r) => r.errors }),
  }),
});

const SettingsDraftRef = builder.inputType('EvaluationSettingsDraft', {
  description: 'Settings of retrieval changed for one run only, never saved; those not given are the saved ones.',
  fields: (t) => ({
    strategy: t.field({ type: StrategyEnum }),
    maxTokens: t.int(),
    fusionVectorShare: t.float({ description: 'null: the calibrated guard.' }),
    profileBudgetPercent: t.int(),
    rerankEnabled: t.boolean(),
    rerankProviderModel: t.string(),
  }),
});

const admin = { admin: true } as const;

builder.queryFields((t) => ({
  evaluationSets: t.field({
    type: [SetRef],
    authScopes: admin,
    description: 'The evaluation sets of one API key, by name.',
    args: { apiKeyId: t.arg.string({ required: true }) },
    resolve: (_root, { apiKeyId }, ctx) => evaluationSets(ctx.services, apiKeyId),
  }),
  evaluationRuns: t.field({
    type: [RunRef],
    authScopes: admin,
    description: 'The runs of one set, newest first.',
    args: { apiKeyId: t.arg.string({ required: true }), setId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => evaluationRuns(ctx.services, { apiKeyId: args.apiKeyId, setId: String(args.setId) }),
  }),
  compareEvaluationRuns: t.field({
    type: ComparisonRef,
    authScopes: admin,
    description: 'How one run of a set differs from another: per metric, and the questions that newly hit, newly missed or moved.',
    args: {
      apiKeyId: t.arg.string({ required: true }),
      beforeRunId: t.arg.id({ required: true }),
      afterRunId: t.arg.id({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      compareEvaluationRuns(ctx.services, {
        apiKeyId: args.apiKeyId,
        beforeRunId: String(args.beforeRunId),
        afterRunId: String(args.afterRunId),
      }),
  }),
}));

builder.mutationFields((t) => ({
  createEvaluationSet: t.field({
    type: SetRef,
    authScopes: admin,
    description: `A new set of labelled questions for one API key; the name, at most ${EVALUATION_LIMITS.nameChars} characters, unique per key.`,
    args: { apiKeyId: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => createEvaluationSet(ctx.services, args),
  }),
  renameEvaluationSet: t.field({
    type: SetRef,
    authScopes: admin,
    args: { apiKeyId: t.arg.string({ required: true }), setId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => renameEvaluationSet(ctx.services, { ...args, setId: String(args.setId) }),
  }),
  deleteEvaluationSet: t.field({
    type: SetRef,
    authScopes: admin,
    description: 'Deletes a set with its questions and runs; returns it as it was.',
    args: { apiKeyId: t.arg.string({ required: true }), setId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteEvaluationSet(ctx.services, { ...args, setId: String(args.setId) }),
  }),
  addEvaluationQuestion: t.field({
    type: QuestionRef,
    authScopes: admin,
    description: `Adds a question to a set (at most ${EVALUATION_LIMITS.questionsPerSet} per set) with the memories that should be found for it, named by id or key (1 to ${EVALUATION_LIMITS.expectedPerQuestion}).`,
    args: {
      apiKeyId: t.arg.string({ required: true }),
      setId: t.arg.id({ required: true }),
      question: t.arg.string({ required: true }),
      expected: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, ctx) => addEvaluationQuestion(ctx.services, { ...args, setId: String(args.setId) }),
  }),
  editEvaluationQuestion: t.field({
    type: QuestionRef,
    authScopes: admin,
    args: {
      apiKeyId: t.arg.string({ required: true }),
      questionId: t.arg.id({ required: true }),
      question: t.arg.string({ required: true }),
      expected: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, ctx) => editEvaluationQuestion(ctx.services, { ...args, questionId: String(args.questionId) }),
  }),
  removeEvaluationQuestion: t.field({
    type: QuestionRef,
    authScopes: admin,
    description: 'Removes a question; returns it as it was. Earlier runs keep their result for it.',
    args: { apiKeyId: t.arg.string({ required: true }), questionId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => removeEvaluationQuestion(ctx.services, { ...args, questionId: String(args.questionId) }),
  }),
  importEvaluationQuestions: t.field({
    type: ImportReportRef,
    authScopes: admin,
    description: `Adds the questions of a JSONL text, one {"question": ..., "expected": [memory id or key, ...]} per line (at most ${EVALUATION_LIMITS.importLines} lines). A line that cannot be added is reported with its number; the others are added.`,
    args: { apiKeyId: t.arg.string({ required: true }), setId: t.arg.id({ required: true }), jsonl: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => importEvaluationQuestions(ctx.services, { ...args, setId: String(args.setId) }),
  }),
  runEvaluation: t.field({
    type: RunRef,
    authScopes: admin,
    description:
      'Asks every question of a set of retrieval, dry (nothing is recorded: no access counts, no injection log), with the saved settings or with a draft over them that this run alone reads, and keeps the run.',
    args: {
      apiKeyId: t.arg.string({ required: true }),
      setId: t.arg.id({ required: true }),
      settingsDraft: t.arg({ type: SettingsDraftRef }),
    },
    resolve: (_root, args, ctx) =>
      runEvaluation(ctx.services, { apiKeyId: args.apiKeyId, setId: String(args.setId), settingsDraft: args.settingsDraft }),
  }),
}));

const RunProgressRef = builder.objectRef<RunProgress>('EvaluationRunProgress').implement({
  fields: (t) => ({
    done: t.exposeInt('done', { description: 'Questions asked so far.' }),
    total: t.exposeInt('total'),
    run: t.field({ type: RunRef, nullable: true, description: 'The run, in the last event, once it is kept.', resolve: (p) => p.run }),
  }),
});

builder.subscriptionField('evaluationRunProgress', (t) =>
  t.field({
    type: RunProgressRef,
    authScopes: admin,
    description:
      'Runs a set as runEvaluation does, reporting as it goes: before the first question, after each, and last with the kept run. A run whose subscription ends before its last event is not kept.',
    args: {
      apiKeyId: t.arg.string({ required: true }),
      setId: t.arg.id({ required: true }),
      settingsDraft: t.arg({ type: SettingsDraftRef }),
    },
    subscribe: (_root, args, ctx) => {
      // Checked here too: field scopes are not guaranteed to run at subscribe time (hayes/pothos#1496).
      if (ctx.viewer.role !== 'admin') throw forbidden('this operation needs an admin token');
      return evaluationSteps(ctx.services, { apiKeyId: args.apiKeyId, setId: String(args.setId), settingsDraft: args.settingsDraft });
    },
    resolve: (progress) => progress,
  }),
);
