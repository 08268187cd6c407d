import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type QuestionResult, runMetrics } from '../../server/evaluation/evaluationRuns.service.ts';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_MEMORY, DELETE_MEMORY, GET_MEMORY, GET_SETTINGS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { subscribe } from '../helpers/subscribe.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const SETS = graphql(`
  query EvaluationSets($apiKeyId: String!) {
    evaluationSets(apiKeyId: $apiKeyId) {
      id
      name
      questionCount
      runCount
      questions {
        id
        question
        expected {
          id
          key
          content
        }
        gone
      }
    }
  }
`);

const CREATE_SET = graphql(`
  mutation EvaluationCreateSet($apiKeyId: String!, $name: String!) {
    createEvaluationSet(apiKeyId: $apiKeyId, name: $name) {
      id
      name
    }
  }
`);

const RENAME_SET = graphql(`
  mutation EvaluationRenameSet($apiKeyId: String!, $setId: ID!, $name: String!) {
    renameEvaluationSet(apiKeyId: $apiKeyId, setId: $setId, name: $name) {
      name
    }
  }
`);

const DELETE_SET = graphql(`
  mutation EvaluationDeleteSet($apiKeyId: String!, $setId: ID!) {
    deleteEvaluationSet(apiKeyId: $apiKeyId, setId: $setId) {
      name
    }
  }
`);

const ADD_QUESTION = graphql(`
  mutation EvaluationAddQuestion($apiKeyId: String!, $setId: ID!, $question: String!, $expected: [String!]!) {
    addEvaluationQuestion(apiKeyId: $apiKeyId, setId: $setId, question: $question, expected: $expected) {
      id
      expected {
        id
      }
    }
  }
`);

const EDIT_QUESTION = graphql(`
  mutation EvaluationEditQuestion($apiKeyId: String!, $questionId: ID!, $question: String!, $expected: [String!]!) {
    editEvaluationQuestion(apiKeyId: $apiKeyId, questionId: $questionId, question: $question, expected: $expected) {
      question
    }
  }
`);

const REMOVE_QUESTION = graphql(`
  mutation EvaluationRemoveQuestion($apiKeyId: String!, $questionId: ID!) {
    removeEvaluationQuestion(apiKeyId: $apiKeyId, questionId: $questionId) {
      question
    }
  }
`);

const IMPORT = graphql(`
  mutation EvaluationImport($apiKeyId: String!, $setId: ID!, $jsonl: String!) {
    importEvaluationQuestions(apiKeyId: $apiKeyId, setId: $setId, jsonl: $jsonl) {
      imported {
        question
        expected {
          key
        }
      }
      errors {
        line
        message
      }
    }
  }
`);

const RUN = graphql(`
  mutation EvaluationRun($apiKeyId: String!, $setId: ID!, $settingsDraft: EvaluationSettingsDraft) {
    runEvaluation(apiKeyId: $apiKeyId, setId: $setId, settingsDraft: $settingsDraft) {
      id
      draft
      settings {
        maxTokens
        strategy
      }
      metrics {
        scored
        expectedGone
        hitAt1
        hitAt5
        hitAt10
        mrr
        meanTokens
        p50Ms
      }
      results {
        question
        outcome
        firstHit
        gone
        tokens
      }
    }
  }
`);

const PROGRESS = graphql(`
  subscription EvaluationProgress($apiKeyId: String!, $setId: ID!) {
    evaluationRunProgress(apiKeyId: $apiKeyId, setId: $setId) {
      done
      total
      run {
        metrics {
          hitAt1
        }
      }
    }
  }
`);

const RUNS = graphql(`
  query EvaluationRuns($apiKeyId: String!, $setId: ID!) {
    evaluationRuns(apiKeyId: $apiKeyId, setId: $setId) {
      id
    }
  }
`);

const COMPARE = graphql(`
  query EvaluationCompare($apiKeyId: String!, $beforeRunId: ID!, $afterRunId: ID!) {
    compareEvaluationRuns(apiKeyId: $apiKeyId, beforeRunId: $beforeRunId, afterRunId: $afterRunId) {
      delta {
        hitAt1
        mrr
      }
      changes {
        question
        change
        before
        after
      }
    }
  }
`);

const FORGET = graphql(`
  mutation EvaluationForget($apiKeyId: String!) {
    forgetApiKey(apiKeyId: $apiKeyId) {
      evaluationSets
    }
  }
`);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, strategy: 'HYBRID', maxTokens: 2000, injectionLogDays: 0 } });
});

let keys = 0;
/** A key of its own with three memories, each with words no other has, and a set. */
async function keyWithSet() {
  const apiKeyId = `eval-${++keys}`;
  const memory = async (key: string, content: string) =>
    (await app.ok(CREATE_MEMORY, { input: { apiKeyId, key, content } })).createMemory.id;
  const ids = {
    cat: await memory('cat', 'The cat is called Miso and sleeps on the radiator'),
    car: await memory('car', 'Drives a green Volvo estate bought in Utrecht'),
    tea: await memory('tea', 'Drinks oolong tea every afternoon'),
  };
  const set = (await app.ok(CREATE_SET, { apiKeyId, name: 'pets and things' })).createEvaluationSet;
  const add = (question: string, expected: string[]) => app.ok(ADD_QUESTION, { apiKeyId, setId: set.id, question, expected });
  return { apiKeyId, ids, setId: set.id, add };
}

describe('evaluation sets', () => {
  it('keeps questions with the memories they expect, named by id or by key', async () => {
    const k = await keyWithSet();
    await k.add('What is the cat called?', ['cat']);
    await k.add('Which car do I drive?', [k.ids.car]);
    const [set] = (await app.ok(SETS, { apiKeyId: k.apiKeyId })).evaluationSets;
    expect(set).toMatchObject({ name: 'pets and things', questionCount: 2, runCount: 0 });
    expect(set!.questions.map((q) => [q.question, q.expected.map((m) => m.key)])).toEqual([
      ['What is the cat called?', ['cat']],
      ['Which car do I drive?', ['car']],
    ]);
  });

  it('refuses a question expecting a memory the key does not have', async () => {
    const k = await keyWithSet();
    const other = await keyWithSet();
    const res = await app.gql(ADD_QUESTION, { apiKeyId: k.apiKeyId, setId: k.setId, question: 'Whose cat?', expected: [other.ids.cat] });
    expect(onlyError(res)).toMatchObject({
      message: `API key "${k.apiKeyId}" has no memory with the id or key "${other.ids.cat}"`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('refuses a second set of the same name for a key, and an empty name', async () => {
    const k = await keyWithSet();
    expect(onlyError(await app.gql(CREATE_SET, { apiKeyId: k.apiKeyId, name: 'pets and things' })).message).toBe(
      `API key "${k.apiKeyId}" already has a set named "pets and things"`,
    );
    expect(onlyError(await app.gql(RENAME_SET, { apiKeyId: k.apiKeyId, setId: k.setId, name: '  ' })).message).toBe(
      'name must not be empty',
    );
  });

  it('edits and removes questions, and deletes a set with its questions and runs', async () => {
    const k = await keyWithSet();
    const { id } = (await k.add('What is the cat called?', ['cat'])).addEvaluationQuestion;
    await app.ok(EDIT_QUESTION, { apiKeyId: k.apiKeyId, questionId: id, question: 'Name of my cat?', expected: ['cat'] });
    await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId });
    expect((await app.ok(REMOVE_QUESTION, { apiKeyId: k.apiKeyId, questionId: id })).removeEvaluationQuestion.question).toBe(
      'Name of my cat?',
    );
    expect((await app.ok(SETS, { apiKeyId: k.apiKeyId })).evaluationSets[0]).toMatchObject({ questionCount: 0, runCount: 1 });
    await app.ok(DELETE_SET, { apiKeyId: k.apiKeyId, setId: k.setId });
    expect((await app.ok(SETS, { apiKeyId: k.apiKeyId })).evaluationSets).toEqual([]);
    expect(await app.database.db.selectFrom('evaluation_runs').selectAll().where('set_id', '=', Number(k.setId)).execute()).toEqual([]);
  });

  it('imports JSONL questions, reporting the lines it could not add by number and adding the rest', async () => {
    const k = await keyWithSet();
    const jsonl = [
      JSON.stringify({ question: 'What is the cat called?', expected: ['cat'] }),
      '',
      '{"question": "broken',
      JSON.stringify({ question: 'Which car?', expected: ['no-such-memory'] }),
      JSON.stringify({ question: ' ', expected: ['tea'] }),
      JSON.stringify({ question: 'What do I drink?', expected: [k.ids.tea, 'tea'] }),
      JSON.stringify({ question: 'Which tea?', expected: ['tea\u0000'] }),
    ].join('\n');
    const report = (await app.ok(IMPORT, { apiKeyId: k.apiKeyId, setId: k.setId, jsonl })).importEvaluationQuestions;
    expect(report.imported).toEqual([
      { question: 'What is the cat called?', expected: [{ key: 'cat' }] },
      { question: 'What do I drink?', expected: [{ key: 'tea' }] },
    ]);
    expect(report.errors).toEqual([
      { line: 3, message: 'is not a JSON object' },
      { line: 4, message: `API key "${k.apiKeyId}" has no memory with the id or key "no-such-memory"` },
      { line: 5, message: 'question must not be empty' },
      { line: 7, message: 'expected.0: an expected memory holds a NUL character (U+0000), and NUL characters are not accepted' },
    ]);
  });
});

describe('evaluation runs', () => {
  it('scores each question against what retrieval would inject: hit@k, MRR, tokens', async () => {
    const k = await keyWithSet();
    await k.add('What is my cat Miso doing on the radiator?', ['cat']);
    await k.add('Where is my passport?', ['car']);
    const run = (await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId })).runEvaluation;
    expect(run.results.map((r) => [r.outcome, r.firstHit])).toEqual([
      ['HIT', 1],
      ['MISSED', null],
    ]);
    expect(run.metrics).toMatchObject({ scored: 2, expectedGone: 0, hitAt1: 0.5, hitAt5: 0.5, hitAt10: 0.5, mrr: 0.5 });
    expect(run.metrics.meanTokens).toBe((run.results[0]!.tokens + run.results[1]!.tokens) / 2);
    expect(run.metrics.meanTokens).toBeGreaterThan(0);
    expect(run.draft).toEqual([]);
  });

  it('says which expected memories were deleted, and leaves out a question whose expected memories all are', async () => {
    const k = await keyWithSet();
    await k.add('What is my cat Miso doing on the radiator?', ['cat']);
    await k.add('Which Volvo do I drive, the one with the oolong tea?', ['car', 'tea']);
    await app.ok(DELETE_MEMORY, { id: k.ids.cat });
    await app.ok(DELETE_MEMORY, { id: k.ids.tea });
    const questions = (await app.ok(SETS, { apiKeyId: k.apiKeyId })).evaluationSets[0]!.questions;
    expect(questions.map((q) => q.gone)).toEqual([[k.ids.cat], [k.ids.tea]]);
    const run = (await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId })).runEvaluation;
    expect(run.results.map((r) => [r.outcome, r.gone])).toEqual([
      ['EXPECTED_GONE', [k.ids.cat]],
      ['HIT', [k.ids.tea]],
    ]);
    expect(run.metrics).toMatchObject({ scored: 1, expectedGone: 1, hitAt1: 1 });
  });

  it('runs a draft of the settings for that run alone, never saving it', async () => {
    const k = await keyWithSet();
    await k.add('What is my cat Miso doing on the radiator?', ['cat']);
    const before = (await app.ok(GET_SETTINGS, {})).memorySettings;
    const run = (await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId, settingsDraft: { maxTokens: 5, strategy: 'EXACT' } }))
      .runEvaluation;
    expect(run.draft).toEqual(['strategy', 'maxTokens']);
    expect(run.settings).toEqual({ maxTokens: 5, strategy: 'EXACT' });
    expect(run.results[0]!.tokens).toBeLessThanOrEqual(5);
    expect((await app.ok(GET_SETTINGS, {})).memorySettings).toEqual(before);
    const saved = (await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId })).runEvaluation;
    expect(saved.settings).toEqual({ maxTokens: 2000, strategy: 'HYBRID' });
  });

  it('refuses a draft out of range, as a save would', async () => {
    const k = await keyWithSet();
    await k.add('What is my cat called?', ['cat']);
    const res = await app.gql(RUN, { apiKeyId: k.apiKeyId, setId: k.setId, settingsDraft: { fusionVectorShare: 2 } });
    expect(onlyError(res)).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(onlyError(res).message).toContain('fusionVectorShare');
  });

  it('records nothing: no access count, no injection log entry', async () => {
    await app.ok(UPDATE_SETTINGS, { input: { injectionLogDays: 30 } });
    const k = await keyWithSet();
    await k.add('What is my cat Miso doing on the radiator?', ['cat']);
    await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId });
    await app.services.access.flush();
    expect((await app.ok(GET_MEMORY, { id: k.ids.cat })).memory!.accessCount).toBe(0);
    expect(await app.database.db.selectFrom('injection_log').selectAll().where('api_key_id', '=', k.apiKeyId).execute()).toEqual([]);
  });

  it('compares two runs per metric and names the questions that newly missed', async () => {
    const k = await keyWithSet();
    await k.add('What is my cat Miso doing on the radiator?', ['cat']);
    await k.add('Where is my passport?', ['car']);
    const full = (await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId })).runEvaluation;
    const starved = (await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId, settingsDraft: { maxTokens: 1 } })).runEvaluation;
    expect((await app.ok(RUNS, { apiKeyId: k.apiKeyId, setId: k.setId })).evaluationRuns.map((r) => r.id)).toEqual([starved.id, full.id]);
    const { compareEvaluationRuns: diff } = await app.ok(COMPARE, { apiKeyId: k.apiKeyId, beforeRunId: full.id, afterRunId: starved.id });
    expect(diff.delta).toEqual({ hitAt1: -0.5, mrr: -0.5 });
    expect(diff.changes).toEqual([
      { question: 'What is my cat Miso doing on the radiator?', change: 'NEWLY_MISSED', before: 1, after: null },
    ]);
  });

  it('reports its progress question by question over a subscription, and last the kept run', async () => {
    const k = await keyWithSet();
    await k.add('What is my cat Miso doing on the radiator?', ['cat']);
    await k.add('Where is my passport?', ['car']);
    const events = await subscribe(app.url, PROGRESS, { apiKeyId: k.apiKeyId, setId: k.setId }).rest();
    expect(events.map((e) => e.data?.evaluationRunProgress)).toEqual([
      { done: 0, total: 2, run: null },
      { done: 1, total: 2, run: null },
      { done: 2, total: 2, run: null },
      { done: 2, total: 2, run: { metrics: { hitAt1: 0.5 } } },
    ]);
    expect((await app.ok(RUNS, { apiKeyId: k.apiKeyId, setId: k.setId })).evaluationRuns).toHaveLength(1);
  });

  it('refuses to run a set with no questions', async () => {
    const k = await keyWithSet();
    expect(onlyError(await app.gql(RUN, { apiKeyId: k.apiKeyId, setId: k.setId })).message).toBe(
      'the set "pets and things" has no questions to run',
    );
  });
});

describe('evaluation metrics', () => {
  const result = (firstHit: number | null, tokens: number, ms: number, outcome?: QuestionResult['outcome']): QuestionResult => ({
    questionId: '1',
    question: 'q',
    expected: ['m'],
    gone: [],
    outcome: outcome ?? (firstHit === null ? 'MISSED' : 'HIT'),
    firstHit,
    evidenceRecall: firstHit === null ? 0 : 1,
    found: [],
    tokens,
    ms,
  });

  it('computes hit@1/5/10, MRR, mean tokens and the median time of a hand-made run', () => {
    const metrics = runMetrics([
      result(1, 100, 4),
      result(3, 200, 10),
      result(7, 300, 2),
      result(null, 400, 8),
      result(null, 999, 1, 'EXPECTED_GONE'),
    ]);
    expect(metrics).toEqual({
      scored: 4,
      expectedGone: 1,
      hitAt1: 1 / 4,
      hitAt5: 2 / 4,
      hitAt10: 3 / 4,
      mrr: (1 + 1 / 3 + 1 / 7 + 0) / 4,
      evidenceRecall: 3 / 4,
      meanTokens: 250,
      p50Ms: 4,
    });
  });
});

describe('evaluation: who may see what', () => {
  it("never shows one key's sets, questions or runs through another key", async () => {
    const a = await keyWithSet();
    const b = await keyWithSet();
    const { id } = (await a.add('What is the cat called?', ['cat'])).addEvaluationQuestion;
    const run = (await app.ok(RUN, { apiKeyId: a.apiKeyId, setId: a.setId })).runEvaluation;
    expect((await app.ok(SETS, { apiKeyId: b.apiKeyId })).evaluationSets.map((s) => s.id)).toEqual([b.setId]);
    const notFound = { extensions: { code: 'NOT_FOUND' } };
    expect(onlyError(await app.gql(RUNS, { apiKeyId: b.apiKeyId, setId: a.setId }))).toMatchObject(notFound);
    expect(onlyError(await app.gql(REMOVE_QUESTION, { apiKeyId: b.apiKeyId, questionId: id }))).toMatchObject(notFound);
    expect(onlyError(await app.gql(COMPARE, { apiKeyId: b.apiKeyId, beforeRunId: run.id, afterRunId: run.id }))).toMatchObject(notFound);
    expect(onlyError(await app.gql(DELETE_SET, { apiKeyId: b.apiKeyId, setId: a.setId }))).toMatchObject(notFound);
    expect((await app.ok(SETS, { apiKeyId: a.apiKeyId })).evaluationSets[0]!.questionCount).toBe(1);
  });

  it('is for admins only: a token bound to the key is refused', async () => {
    const k = await keyWithSet();
    const token = await app.mintToken({ apiKeyId: k.apiKeyId });
    expect(onlyError(await app.gql(SETS, { apiKeyId: k.apiKeyId }, token)).extensions?.code).toBe('FORBIDDEN');
    expect(onlyError(await app.gql(CREATE_SET, { apiKeyId: k.apiKeyId, name: 'mine' }, token)).extensions?.code).toBe('FORBIDDEN');
    const [refused] = await subscribe(app.url, PROGRESS, { apiKeyId: k.apiKeyId, setId: k.setId }, token).rest();
    expect(refused?.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('forgetApiKey erases the sets of the key with their questions and runs', async () => {
    const k = await keyWithSet();
    await k.add('What is the cat called?', ['cat']);
    await app.ok(RUN, { apiKeyId: k.apiKeyId, setId: k.setId });
    expect((await app.ok(FORGET, { apiKeyId: k.apiKeyId })).forgetApiKey.evaluationSets).toBe(1);
    expect((await app.ok(SETS, { apiKeyId: k.apiKeyId })).evaluationSets).toEqual([]);
    const db = app.database.db;
    expect(await db.selectFrom('evaluation_questions').selectAll().where('set_id', '=', Number(k.setId)).execute()).toEqual([]);
    expect(await db.selectFrom('evaluation_runs').selectAll().where('set_id', '=', Number(k.setId)).execute()).toEqual([]);
  });
});
