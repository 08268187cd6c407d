import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../../bench/lib/text.ts';
import type { RetrievalScope } from '../../server/db/scope.ts';
import { keywordCandidates } from '../../server/retrieval/retrieval.repository.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// A keyword search asked for a head of its ranking must answer the exhaustive ranking's first rows: the same memories
// in the same order with the same scores, the exhaustive ranking being the same search asked for more rows than match.
// SQLite scores only the memories that can still reach the head (MaxScore over a key's postings in memory), which is
// what this pins there; PostgreSQL's statement scores every match and takes the head in SQL.

const VOCABULARY = Array.from({ length: 120 }, (_, i) => `${['al', 'be', 'ga', 'de', 'ka', 'la'][i % 6]}${'mnoprstv'[i % 8]}${i}x`);
// A word the PostgreSQL parser splits, found as a phrase there.
VOCABULARY.push('state-of-the-art');

/** Zipf-like: a few words in most memories, most words in a few. */
const word = (next: () => number) => VOCABULARY[Math.floor(next() ** 3 * VOCABULARY.length)]!;

let t: TestDb;
const KEY = 'head-key';
beforeAll(async () => {
  t = await openTestDb();
  const next = rng(5);
  const now = Date.now();
  const rows = Array.from({ length: 900 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    api_key_id: i % 10 === 0 ? 'other-key' : KEY,
    type: 'factual' as const,
    key: `note:${word(next)}-${i}`,
    content: Array.from({ length: 2 + Math.floor(next() * 20) }, () => word(next)).join(' '),
    metadata: '{}',
    tokens: 8,
    created_at: now,
    updated_at: now,
    valid_from: now,
  }));
  for (let i = 0; i < rows.length; i += 300)
    await t.database.db
      .insertInto('memories')
      .values(rows.slice(i, i + 300))
      .execute();
});
afterAll(() => t.close());

const scope: RetrievalScope = { apiKeyId: KEY, sessionId: null, types: null, now: Date.now() + 1_000, retentionCutoff: 0 };

describe('the head of a keyword ranking', () => {
  it('is the exhaustive ranking’s first rows, for questions of common and rare words and any length of head', async () => {
    const next = rng(9);
    for (let q = 0; q < 40; q++) {
      const words = [...new Set(Array.from({ length: 1 + Math.floor(next() * 6) }, () => word(next)))];
      const all = await keywordCandidates(t.database.db, scope, words, 100_000);
      for (const limit of [1, 4, 15]) {
        const head = await keywordCandidates(t.database.db, scope, words, limit);
        const rows = (hits: typeof all) => hits.rows.map((r) => ({ pk: r.pk, score: r.score, matched: r.matched }));
        expect(rows(head), `${words.join(' ')}, head of ${limit}`).toEqual(rows(all).slice(0, limit));
        expect(head.holding).toEqual(all.holding);
        expect(head.memories).toBe(all.memories);
      }
    }
  });
});
