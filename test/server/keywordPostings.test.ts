import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rng } from '../../bench/lib/text.ts';
import type { Db } from '../../server/db/open.ts';
import * as postgresIndex from '../../server/db/postgres/keywordIndex.ts';
import type { RetrievalScope } from '../../server/db/scope.ts';
import * as sqliteIndex from '../../server/db/sqlite/keywordIndex.ts';
import { keywordCandidates } from '../../server/retrieval/retrieval.repository.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';
import { openTestStore, testStoreKind } from '../helpers/testStore.ts';

// Both stores rank keywords from each key's postings in the server's memory (db/sqlite/keywordIndex.ts,
// db/postgres/keywordIndex.ts), kept in step with the keyword index through the keyword_changes feed; the store's own
// statement (FTS5's, PostgreSQL's over memory_postings) answers inside a transaction, and is the reference here.

const { keywordIndexOf, forgetKeywordChanges } = testStoreKind() === 'sqlite' ? sqliteIndex : postgresIndex;

const opened: TestDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});
async function store() {
  const test = await openTestDb();
  opened.push(test);
  return test.database.db;
}

const VOCABULARY =
  'alpha beta gamma delta kappa lambda sigma omega rust go python deploy deployed deploying server servers cache queue'.split(' ');

function text(next: () => number, words: number) {
  // Squared: the first words of the vocabulary are common, the last rare, as in a real key.
  return Array.from({ length: words }, () => VOCABULARY[Math.floor(next() ** 2 * VOCABULARY.length)]).join(' ');
}

let pk = 0;
function row(apiKeyId: string, next: () => number) {
  pk++;
  return {
    id: `00000000-0000-4000-8000-${String(pk).padStart(12, '0')}`,
    api_key_id: apiKeyId,
    type: 'factual' as const,
    key: `note:${text(next, 1)}-${pk}`,
    content: text(next, 2 + Math.floor(next() * 12)),
    metadata: '{}',
    tokens: 8,
    created_at: Date.now(),
    updated_at: Date.now(),
    valid_from: Date.now(),
  };
}

/** `count` generated memories of the key. */
async function insertRows(db: Db, apiKeyId: string, count: number, next: () => number) {
  await db
    .insertInto('memories')
    .values(Array.from({ length: count }, () => row(apiKeyId, next)))
    .execute();
}

/** One memory of the key saying `content`; its pk. */
async function insertOne(db: Db, apiKeyId: string, content: string, next: () => number): Promise<number> {
  const { pk } = await db
    .insertInto('memories')
    .values({ ...row(apiKeyId, next), content })
    .returning('pk')
    .executeTakeFirstOrThrow();
  return pk;
}

/** The feed as the prune leaves it when it took the key's rows: SQLite's empties, PostgreSQL's records how far. */
async function prunedFeed(db: Db, apiKeyId: string) {
  if (testStoreKind() === 'sqlite') {
    await sql`delete from keyword_changes`.execute(db);
    return;
  }
  await sql`insert into keyword_changes_pruned (api_key_id, upto) select api_key_id, max(seq) from keyword_changes
    where api_key_id = ${apiKeyId} group by 1`.execute(db);
  await sql`delete from keyword_changes where api_key_id = ${apiKeyId}`.execute(db);
}

const scope = (apiKeyId: string): RetrievalScope => ({ apiKeyId, sessionId: null, types: null, now: Date.now(), retentionCutoff: 0 });

/** Every match, scored: to nine digits, since the two sum a memory's words in another order. */
async function ranking(db: Db, apiKeyId: string, words: string[]) {
  const hits = await keywordCandidates(db, scope(apiKeyId), words, 100_000);
  const scores = hits.rows.map((r) => r.score);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  return {
    memories: hits.memories,
    holding: hits.holding,
    rows: hits.rows.map((r) => ({ pk: r.pk, score: r.score.toFixed(9), matched: r.matched })).sort((a, b) => a.pk - b.pk),
  };
}

async function expectSameAsStatement(db: Db, apiKeyId: string, next: () => number) {
  expect(await keywordIndexOf(db).postings(db, apiKeyId)).not.toBeNull();
  for (let q = 0; q < 25; q++) {
    const words = [...new Set(text(next, 1 + Math.floor(next() * 5)).split(' '))];
    const fromStatement = await db.transaction().execute((trx) => ranking(trx, apiKeyId, words));
    expect(await ranking(db, apiKeyId, words), `words: ${words.join(' ')}`).toEqual(fromStatement);
  }
}

describe("keyword ranking from a key's postings in memory", () => {
  it('scores every memory as the store’s statement does, through inserts, edits, moves between keys and deletes', async () => {
    const db = await store();
    const next = rng(7);
    const [a, b] = ['key-a', 'key-b'];
    await db
      .insertInto('memories')
      .values(Array.from({ length: 400 }, (_, i) => row(i % 3 === 0 ? b : a, next)))
      .execute();
    await expectSameAsStatement(db, a, next);

    const rows = await db.selectFrom('memories').select('pk').execute();
    for (const [i, { pk }] of rows.entries()) {
      if (i % 7 === 0)
        await db
          .updateTable('memories')
          .set({ content: text(next, 5) })
          .where('pk', '=', pk)
          .execute();
      else if (i % 11 === 0)
        await db
          .updateTable('memories')
          .set({ key: `note:${text(next, 2)}-${pk}` })
          .where('pk', '=', pk)
          .execute();
      else if (i % 13 === 0) await db.updateTable('memories').set({ api_key_id: b }).where('pk', '=', pk).execute();
      else if (i % 17 === 0) await db.deleteFrom('memories').where('pk', '=', pk).execute();
    }
    await insertRows(db, a, 50, next);
    await expectSameAsStatement(db, a, next);
    await expectSameAsStatement(db, b, next);
  });

  it('finds at once what another connection wrote or deleted', async () => {
    const db = await store();
    const other = await openTestStore(opened[0]!.dir);
    try {
      const next = rng(11);
      await insertRows(db, 'key-a', 30, next);
      expect((await keywordCandidates(db, scope('key-a'), ['zeppelin'], 10)).rows).toEqual([]);

      const pk = await insertOne(other.db, 'key-a', 'the zeppelin lands', next);
      expect((await keywordCandidates(db, scope('key-a'), ['zeppelin'], 10)).rows.map((r) => r.pk)).toEqual([pk]);
      expect((await keywordIndexOf(db).postings(db, 'key-a'))?.postings.has(pk)).toBe(true);

      await other.db.deleteFrom('memories').where('pk', '=', pk).execute();
      expect((await keywordCandidates(db, scope('key-a'), ['zeppelin'], 10)).rows).toEqual([]);
      expect((await keywordIndexOf(db).postings(db, 'key-a'))?.postings.has(pk)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('builds the postings anew when the feed no longer holds the changes they missed', async () => {
    const db = await store();
    const next = rng(13);
    await insertRows(db, 'key-a', 30, next);
    await keywordCandidates(db, scope('key-a'), ['alpha'], 10);
    const pk = await insertOne(db, 'key-a', 'the zeppelin lands', next);
    // As if pruned past this process's last read (or, on SQLite, the file were an older copy).
    await prunedFeed(db, 'key-a');
    expect((await keywordCandidates(db, scope('key-a'), ['zeppelin'], 10)).rows.map((r) => r.pk)).toEqual([pk]);
    expect((await keywordIndexOf(db).postings(db, 'key-a'))?.postings.has(pk)).toBe(true);
  });

  it('forgets with a key what its postings held, wherever they are held', async () => {
    const db = await store();
    const other = await openTestStore(opened[0]!.dir);
    try {
      const next = rng(19);
      // Another key's changes stay in the feed, older than any of this key's.
      await insertRows(db, 'key-b', 5, next);
      await insertRows(db, 'key-a', 30, next);
      expect((await keywordCandidates(db, scope('key-a'), ['alpha'], 10)).memories).toBe(30);
      // What forgetApiKey does to the index in another process: the memories go, then the feed's rows of the key.
      await other.db.deleteFrom('memories').where('api_key_id', '=', 'key-a').execute();
      await forgetKeywordChanges(other.db, 'key-a');
      const pk = await insertOne(other.db, 'key-a', 'alpha again', next);

      const hits = await keywordCandidates(db, scope('key-a'), ['alpha'], 10);
      expect({ memories: hits.memories, rows: hits.rows.map((r) => r.pk) }).toEqual({ memories: 1, rows: [pk] });
      expect(await sql`select * from keyword_changes where api_key_id = 'key-a' and memory_pk <> ${pk}`.execute(db)).toEqual({ rows: [] });
    } finally {
      await other.close();
    }
  });

  it.skipIf(testStoreKind() !== 'postgres')('keeps the newest 100,000 changes and, per key, how far its own were pruned', async () => {
    const db = await store();
    const next = rng(23);
    await insertRows(db, 'key-a', 3, next);
    // 100,000 changes later, as far as the feed's numbers go: the next thousandth change prunes.
    await sql`alter table keyword_changes alter column seq restart with 100998`.execute(db);
    await insertRows(db, 'key-b', 2, next);
    expect(await sql`select api_key_id, upto from keyword_changes_pruned`.execute(db)).toEqual({ rows: [] });
    await insertRows(db, 'key-b', 2, next);
    const { rows } = await sql<{ api_key_id: string; seq: number }>`select api_key_id, seq from keyword_changes order by seq`.execute(db);
    expect(rows).toEqual([100998, 100999, 101000, 101001].map((seq) => ({ api_key_id: 'key-b', seq })));
    expect((await sql`select api_key_id, upto from keyword_changes_pruned`.execute(db)).rows).toEqual([{ api_key_id: 'key-a', upto: 3 }]);
  });

  it.skipIf(testStoreKind() !== 'postgres')('numbers a change of a key only once the key’s earlier writer has committed', async () => {
    const db = await store();
    const next = rng(29);
    await insertOne(db, 'key-a', 'the first memory', next);
    const { rows } = await sql<{ name: string }>`select pg_get_serial_sequence('keyword_changes', 'seq') as name`.execute(db);
    const lastNumber = async () => (await sql<{ n: number }>`select last_value as n from ${sql.raw(rows[0]!.name)}`.execute(db)).rows[0]!.n;
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => {
      commitFirst = resolve;
    });
    let firstWrote!: () => void;
    const wrote = new Promise<void>((resolve) => {
      firstWrote = resolve;
    });
    const first = db.transaction().execute(async (trx) => {
      await insertOne(trx, 'key-a', 'written first', next);
      firstWrote();
      await firstMayCommit;
    });
    await wrote;
    const firstNumber = await lastNumber();
    const second = db.transaction().execute((trx) => insertOne(trx, 'key-a', 'written second', next));
    try {
      // The second writer waits for the key (a lock), without a number drawn: were it drawn, the first could commit a
      // later number first, and a reader that saw it would never look back for this one.
      await vi.waitFor(async () => {
        const { rows: waiting } =
          await sql`select pid from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
        expect(waiting).toHaveLength(1);
      });
      expect(await lastNumber()).toBe(firstNumber);
    } finally {
      commitFirst();
      await first;
      await second;
    }
    expect(await lastNumber()).toBe(firstNumber + 1);
  });

  it('answers a large key by the store’s statement while its postings are built, then from them, alike', async () => {
    const db = await store();
    const next = rng(17);
    await insertRows(db, 'key-a', 1_500, next);
    expect(await keywordIndexOf(db).postings(db, 'key-a')).toBeNull();
    const fromStatement = await ranking(db, 'key-a', ['gamma', 'queue']);
    await vi.waitFor(async () => expect(await keywordIndexOf(db).postings(db, 'key-a')).not.toBeNull(), { timeout: 10_000 });
    expect(await ranking(db, 'key-a', ['gamma', 'queue'])).toEqual(fromStatement);
  });
});
