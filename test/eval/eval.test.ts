import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EvalReport,
  type EvalSource,
  evaluateFolder,
  formatBudgetMarkdown,
  formatMarkdown,
  formatReport,
  type MetricRow,
} from '../../eval/core.ts';
import { detectFormat, UnsupportedDataError } from '../../eval/datasets.ts';
import { score } from '../../server/retrieval/rankingMetrics.ts';
import { writeWordVectorPackage } from '../helpers/wordVectorPackage.ts';

type Turn = { role: 'user' | 'assistant'; content: string; has_answer: boolean };

function question(id: string, type: string, text: string, sessions: { id: string; date: string; turns: Turn[] }[]) {
  return {
    question_id: id,
    question_type: type,
    question: text,
    answer: 'n/a',
    question_date: '2023/05/30 (Tue) 10:00',
    haystack_dates: sessions.map((s) => s.date),
    haystack_session_ids: sessions.map((s) => s.id),
    haystack_sessions: sessions.map((s) => s.turns),
    answer_session_ids: sessions.filter((s) => s.turns.some((t) => t.has_answer)).map((s) => s.id),
  };
}

const u = (content: string, has_answer = false): Turn => ({ role: 'user', content, has_answer });
const a = (content: string, has_answer = false): Turn => ({ role: 'assistant', content, has_answer });

/**
 * q1: the answer turn is the first of four and shares "Biscuit" and "breed" with the question:
 *     keyword ranks it 1st; EXACT (newest first) ranks it 4th.
 * q2: the answer turn shares no word with the question, which instead names q1's dog: keyword finds
 *     nothing in q2's own key (and must not reach into q1's); EXACT ranks it 1st, being the last turn.
 * q3: abstention, no has_answer turn: skipped.
 * Sessions are dated 2023, years before today: retrieval must run as of the question date or retention hides them.
 */
const FILES = {
  '1_aaaa0001.json': question('aaaa0001', 'single-session-user', 'What breed is my dog Biscuit?', [
    {
      id: 'answer_s1',
      date: '2023/05/20 (Sat) 09:00',
      turns: [
        u('My dog Biscuit is a corgi, the breed with short legs, and he loves the beach.', true),
        a('Corgis are lively herding dogs; daily walks keep them happy.'),
        u('Can you suggest a weekly meal plan with lentils?'),
        a('Sure: lentil soup on Monday, dal on Wednesday, salad on Friday.'),
      ],
    },
  ]),
  '1_aaaa0002.json': question('aaaa0002', 'single-session-assistant', 'Which city did Biscuit and I relocate to?', [
    {
      id: 'answer_s2',
      date: '2023/05/21 (Sun) 09:00',
      turns: [
        u('Any tips for packing fragile glasses?'),
        a('Wrap each glass in paper and fill gaps with towels.'),
        u('We finally moved into our flat in Lisbon.', true),
      ],
    },
  ]),
  '1_aaaa0003_abs.json': question('aaaa0003_abs', 'single-session-user', 'What is the name of my hamster?', [
    { id: 's3', date: '2023/05/22 (Mon) 09:00', turns: [u('I like hiking in the Alps.'), a('The Alps have wonderful trails.')] },
  ]),
};

let dir: string;
let noModels: string;
let report: EvalReport;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-test-'));
  noModels = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-no-models-'));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  // Every source; a tiny generated static model (64-d); a tiny word-vector package; an empty transformers cache,
  // so that source is skipped.
  writeWordVectorPackage(path.join(noModels, 'tiny-vectors'));
  report = await evaluateFolder(dir, {
    ks: [1, 5, 10],
    staticDim: 64,
    env: {
      MEMORY_TRANSFORMERS_CACHE_DIR: noModels,
      MEMORY_STATIC_PACKAGE: path.join(noModels, 'tiny-vectors'),
      MEMORY_STATIC_CACHE_DIR: path.join(noModels, 'static'),
    },
  });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(noModels, { recursive: true, force: true });
});

const run = (name: string, source: EvalSource = 'none') => report.strategies.find((s) => s.strategy === name && s.source === source)!;
const strategy = (name: string) => run(name, 'none');
const typeRow = (name: string, type: string, source: EvalSource = 'none') =>
  run(name, source).byType.find((r) => r.group === type) as MetricRow;

describe('eval on a LongMemEval-format folder', () => {
  it('detects the format, evaluates the answerable questions and counts the skipped one', () => {
    expect(detectFormat(dir)).toBe('longmemeval');
    expect(report.questions).toBe(2);
    expect(report.skipped).toEqual({ 'no has_answer turn (abstention question)': 1 });
    expect(report.apiKeys).toBe(2);
    expect(report.memories).toEqual({ imported: 7, updated: 0, rejected: 0, outsideRetention: 0 });
    expect(report.strategies.map((s) => `${s.strategy}/${s.source}`)).toEqual([
      'EXACT/none',
      'SEMANTIC/none',
      'HYBRID/none',
      'SEMANTIC/static',
      'HYBRID/static',
      'SEMANTIC/package',
      'HYBRID/package',
    ]);
  });

  it('HYBRID: the word-sharing answer is a hit at k=1, the other question misses, and nothing crosses tenants', () => {
    const hybrid = strategy('HYBRID');
    expect(hybrid.overall.questions).toBe(2);
    expect(hybrid.overall.hitAt).toEqual({ 1: 0.5, 5: 0.5, 10: 0.5 });
    expect(hybrid.overall.mrr).toBeCloseTo(0.5);
    expect(typeRow('HYBRID', 'single-session-user').hitAt[1]).toBe(1);
    expect(typeRow('HYBRID', 'single-session-assistant').hitAt[10]).toBe(0);
    expect(hybrid.emptyResults).toBe(1);
    expect(hybrid.crossTenant).toBe(0);
  });

  it("asks each key a distractor (another key's question, or a chat line) and counts the ones that injected nothing", () => {
    // q1's key is asked q2's question, which names q1's dog Biscuit: its turn comes back. q2's key is asked
    // "thanks!", which matches none of its memories.
    expect(strategy('HYBRID').distractors).toEqual({ asked: 2, clean: 1, injected: expect.any(Number) });
    expect(strategy('HYBRID').distractors.injected).toBeGreaterThan(0);
    // EXACT returns the newest memories whatever is asked.
    expect(strategy('EXACT').distractors.clean).toBe(0);
  });

  it('reports the tier that answered from the resolution, fallback included', () => {
    expect(strategy('EXACT').answeredBy).toEqual({ exact: 2 });
    expect(strategy('HYBRID').answeredBy).toEqual({ 'keyword (fallback)': 2 });
    expect(Object.values(strategy('SEMANTIC').fallbackReasons)).toEqual([2]);
  });

  it('EXACT ranks newest first: the last turn is rank 1, the first of four is rank 4', () => {
    const exact = strategy('EXACT');
    expect(exact.overall.hitAt).toEqual({ 1: 0.5, 5: 1, 10: 1 });
    expect(exact.overall.mrr).toBeCloseTo((1 + 1 / 4) / 2);
    expect(typeRow('EXACT', 'single-session-user').mrr).toBeCloseTo(0.25);
  });

  it('static source: a reindex job embeds every memory first, then the vector tier answers without fallback', () => {
    const source = report.sources.find((s) => s.source === 'static')!;
    expect(source.skipped).toBeNull();
    expect(source.label).toContain('GENERATED');
    expect(source.label).toContain('NOT a semantic model');
    expect(source.embedding).toMatchObject({ status: 'completed', memories: 7, failed: 0, vectors: 7 });
    const semantic = run('SEMANTIC', 'static');
    const hybrid = run('HYBRID', 'static');
    expect(semantic.answeredBy).toEqual({ vector: 2 });
    expect(hybrid.answeredBy).toEqual({ 'keyword+vector': 2 });
    expect(semantic.fallbackReasons).toEqual({});
    expect(hybrid.fallbackReasons).toEqual({});
    expect(semantic.embeddings).toEqual({ 'static generated/bow-idf-64': 2 });
    expect(semantic.crossTenant + hybrid.crossTenant).toBe(0);
  });

  it('static source: the answer that shares most words with the question ranks first, by vectors alone', () => {
    expect(typeRow('SEMANTIC', 'single-session-user', 'static').hitAt[1]).toBe(1);
    expect(typeRow('HYBRID', 'single-session-user', 'static').hitAt[1]).toBe(1);
  });

  it('package source: the word vectors of the package, converted and embedded by a reindex job, answer the vector tier', () => {
    const source = report.sources.find((s) => s.source === 'package')!;
    expect(source.skipped).toBeNull();
    expect(source.label).toContain('npm package tiny-vectors@1.2.3 (MIT)');
    expect(source.embedding).toMatchObject({ status: 'completed', memories: 7, failed: 0, vectors: 7 });
    expect(run('SEMANTIC', 'package').answeredBy).toEqual({ vector: 2 });
    expect(Object.keys(run('SEMANTIC', 'package').embeddings)).toEqual([`static ${source.model}`]);
  });

  it('a source that cannot run here is reported as skipped, with the reason, and the report says so', () => {
    const transformers = report.sources.find((s) => s.source === 'transformers')!;
    expect(transformers.skipped).toMatch(/not on disk/);
    expect(report.strategies.some((s) => s.source === 'transformers')).toBe(false);
    const text = formatReport(report);
    expect(text).toContain('transformers: SKIPPED');
    expect(text).toContain('static*');
    expect(text).toMatch(/SEMANTIC\s+static\*\s+vector\s+all/);
  });

  it('--markdown: one table row per strategy run, with the model that answered', () => {
    const rows = formatMarkdown([report]).trim().split('\n');
    expect(rows).toHaveLength(2 + report.strategies.length);
    expect(rows[2]).toMatch(/^\| \S+ \(2\) \| EXACT \| – \| exact \| 0\.500 \|/);
    expect(rows.at(-1)).toContain('| HYBRID | tiny-vectors@1.2.3+');
  });

  it('asks each question again at 250, 500, 1000 and 2000 tokens: the share of blocks holding evidence and the mean tokens', () => {
    const budgets = strategy('HYBRID').budgets;
    expect(budgets.map((b) => b.maxTokens)).toEqual([250, 500, 1000, 2000]);
    // The memories are one line each: every cap holds the one evidence HYBRID finds, at the same cost.
    expect(budgets.map((b) => b.hit)).toEqual([0.5, 0.5, 0.5, 0.5]);
    for (const b of budgets) expect(b.meanTokens).toBe(budgets[0]!.meanTokens);
    expect(budgets[0]!.meanTokens).toBeGreaterThan(0);
    expect(formatReport(report)).toMatch(/hit@250 +tokens@250 .* 500\/2000/);
    const rows = formatBudgetMarkdown([report]).trim().split('\n');
    expect(rows).toHaveLength(2 + report.strategies.length);
    expect(rows.at(-1)).toMatch(/\| HYBRID \| tiny-vectors@1\.2\.3\S* \| 0\.500 · \d+ \|.* \| 1\.00 \|$/);
  });

  it('--source none runs only the keyword tier; --source static runs no EXACT', async () => {
    const none = await evaluateFolder(dir, { ks: [1], sources: ['none'] });
    expect(none.strategies.map((s) => s.source)).toEqual(['none', 'none', 'none']);
    expect(none.sources.map((s) => s.source)).toEqual(['none']);
    const stat = await evaluateFolder(dir, { ks: [1], sources: ['static'], staticDim: 16 });
    expect(stat.strategies.map((s) => `${s.strategy}/${s.source}`)).toEqual(['SEMANTIC/static', 'HYBRID/static']);
  });

  it('--limit takes the first questions in file order', async () => {
    const one = await evaluateFolder(dir, { ks: [1], limit: 1, strategies: ['HYBRID'], sources: ['none'] });
    expect(one.questions).toBe(1);
    expect(one.strategies[0]!.overall.hitAt).toEqual({ 1: 1 });
  });

  it('rejects a folder it does not understand', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-empty-'));
    try {
      expect(() => detectFormat(empty)).toThrow(UnsupportedDataError);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('score', () => {
  it('finds the first relevant rank and the share of evidence found', () => {
    const relevant = new Set(['b', 'd']);
    expect(score({ relevant }, ['a', 'b', 'c', 'd'], [1, 3])).toEqual({ firstHit: 2, evidenceRecall: 0.5 });
    expect(score({ relevant }, ['a', 'b', 'c', 'd'], [1, 4])).toEqual({ firstHit: 2, evidenceRecall: 1 });
    expect(score({ relevant }, ['a', 'c'], [1, 5])).toEqual({ firstHit: null, evidenceRecall: 0 });
  });
});
