import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantPrefix, tenantTerms } from '../../server/db/tenantTerms.ts';
import { supersede } from '../../server/memory/supersession.service.ts';
import { type QdrantDouble, startQdrantDouble } from '../doubles/qdrant.ts';
import { ErasureForgetApiKeyDocument as FORGET_API_KEY } from '../generated/graphql.ts';
import { graphql } from '../helpers/graphql.ts';
import {
  CLEAR_MEMORIES,
  DELETE_MEMORY,
  GET_MEMORY,
  IMPORT_MEMORIES,
  SUMMARIZE,
  UPDATE_MEMORY,
  UPDATE_QDRANT,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';

// The auditor's test: a deleted text appears nowhere in the database files. A unique marker is written (in a memory's
// content and key, and in the earlier wording its history keeps), compacted into a summary, embedded (sqlite-vec filled) and synced to Qdrant (the double); then one
// erase path runs (deleteMemory, clearMemories, forgetApiKey, the purge), the background worker carries the outbox to
// Qdrant, the WAL is checkpointed, and the raw bytes of mnemo.db, mnemo.db-wal and mnemo.db-shm are searched for the
// marker, for its terms as FTS5 stores them (as typed and with the key's tenant prefix, stemmed, lower-cased), and
// for the vectors that were stored for it. Qdrant's stored points must not hold it either.

const DAY = 86_400_000;
const FILES = ['mnemo.db', 'mnemo.db-wal', 'mnemo.db-shm'];
const models = topicModelDir();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Scene {
  app: TestApp;
  qdrant: QdrantDouble;
  apiKeyId: string;
  marker: string;
  markerId: string;
  summaryId: string;
  /** Byte strings that must be gone from the files once the marker's memory is erased. */
  needles: { what: string; bytes: Buffer }[];
}

/** A key with ten facts and the marker's memory, all compacted into one summary, embedded and synced to Qdrant. */
async function scene(): Promise<Scene> {
  const qdrant = await startQdrantDouble();
  cleanups.push(() => qdrant.close());
  const app = await startTestApp({ engine: topicEngine(models) });
  cleanups.push(() => app.close());
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, retentionDays: 90 } });
  await app.services.vectors.loadForJob();
  await app.ok(UPDATE_QDRANT, { input: { url: qdrant.url, enabled: true } });

  // Lower-case, and ending in a digit: the porter stemmer leaves it whole, so its stored term is known exactly.
  const marker = `zqv${randomBytes(8).toString('hex')}7`;
  const apiKeyId = `audit-${randomBytes(4).toString('hex')}`;
  const written = new Date(Date.now() - 40 * DAY).toISOString();
  const content = `The piano tennis umbrella locker word is ${marker}`;
  const markerKey = `note-${marker}`;
  // Its first wording, which the import below replaces: the history keeps it as a version.
  await app.ok(IMPORT_MEMORIES, {
    memories: [{ apiKeyId, key: markerKey, content: `The old locker word was ${marker}`, createdAt: written }],
  });
  await app.ok(IMPORT_MEMORIES, {
    memories: [
      ...['banana', 'mango', 'cherry', 'papaya', 'apple', 'python', 'rust', 'paris', 'hotel', 'jazz'].map((word, i) => ({
        apiKeyId,
        key: `f${i}`,
        content: `I like ${word}`,
        createdAt: written,
      })),
      { apiKeyId, key: markerKey, content, createdAt: written },
    ],
  });
  const { summarize } = await app.ok(SUMMARIZE, { apiKeyId, olderThanDays: 30, dryRun: false });
  expect(summarize.summaries).toHaveLength(1);
  expect(summarize.summaries[0]!.content).toContain(marker);
  await drainWorker(app);
  // The planner's statistics may be refreshed at any moment (pragma optimize, at start and hourly).
  app.database.sqlite.exec('analyze');

  const sqlite = app.database.sqlite;
  const pkOf = (id: string) => (sqlite.prepare('select pk from memories where id = ?').get(id) as { pk: number }).pk;
  const markerId = (sqlite.prepare('select id from memories where key = ?').get(markerKey) as { id: string }).id;
  expect(sqlite.prepare('select content from memory_versions where memory_pk = ?').all(pkOf(markerId))).toEqual([
    { content: `The old locker word was ${marker}` },
  ]);
  const summaryId = summarize.summaries[0]!.id;
  await supersedeWithMarker(app, apiKeyId, markerId, marker);
  // The supersession took f0 out of the summary, whose rebuilt text is embedded again.
  await drainWorker(app);
  const vectorOf = (id: string) => {
    const row = sqlite.prepare('select embedding from memory_vec where memory_pk = ?').get(BigInt(pkOf(id))) as { embedding: Buffer };
    return Buffer.from(row.embedding);
  };
  expect(pointsHolding(qdrant, marker)).toBe(1);

  const needles = [
    { what: 'the marker', bytes: Buffer.from(marker) },
    // Terms are prefix-compressed within an index page: the random middle is in every stored form of every term.
    { what: "the marker's random part", bytes: Buffer.from(marker.slice(3, -1)) },
    ...ftsTerms([content, markerKey, tenantTerms(apiKeyId, content), tenantTerms(apiKeyId, markerKey)])
      .filter((term) => term.includes(marker))
      .map((term) => ({ what: `the FTS5 term ${term}`, bytes: Buffer.from(term) })),
    { what: "the marker memory's vector", bytes: vectorOf(markerId) },
    { what: "the summary's vector of the marker's text", bytes: vectorOf(summaryId) },
  ];
  expect(needles.length).toBe(6);
  // The scan sees them while they are stored; a whole term only when its page does not store it after a term sharing
  // its beginning (the tenant-prefixed one shares the key's prefix with the key's other terms), its tail always.
  checkpoint(app);
  const seen = found(app, needles).map((f) => f.split(' in ')[0]);
  expect(seen).toEqual(expect.arrayContaining(needles.filter((n) => !n.what.startsWith('the FTS5 term')).map((n) => n.what)));
  return { app, qdrant, apiKeyId, marker, markerId, summaryId, needles };
}

/**
 * The marker's memory supersedes one of the key's facts, on the strength of a sentence holding the marker: the
 * supersession record keeps that sentence, and must go with the memory.
 */
async function supersedeWithMarker(app: TestApp, apiKeyId: string, markerId: string, marker: string) {
  const fact = await app.database.db
    .selectFrom('memories')
    .select('id')
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', 'f0')
    .executeTakeFirstOrThrow();
  await supersede(app.services, {
    apiKeyId,
    oldId: fact.id,
    newId: markerId,
    rule: 'test',
    sentence: `Forget that, the word is ${marker} now`,
  });
}

/** One round of the background worker: embed what is flagged, carry the outbox to Qdrant. */
async function drainWorker(app: TestApp) {
  for (let i = 0; i < 10; i++) {
    const embedded = await app.services.vectors.embedPending({ limit: 500 });
    const synced = await app.services.vectors.syncRemote(500);
    expect(synced.error).toBeNull();
    if (embedded.processed === 0 && synced.processed === 0) return;
  }
}

/** The terms FTS5 stores for these texts, tokenized exactly as the keyword index does. */
function ftsTerms(texts: string[]): string[] {
  const db = new SQLite(':memory:');
  db.exec(`create virtual table t using fts5(c, tokenize='porter unicode61'); create virtual table v using fts5vocab(t, 'row');`);
  for (const text of texts) db.prepare('insert into t(c) values (?)').run(text);
  const terms = (db.prepare('select term from v').all() as { term: string }[]).map((r) => r.term);
  db.close();
  return terms;
}

function checkpoint(app: TestApp) {
  const [result] = app.database.sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  expect(result?.busy).toBe(0);
}

/** Which needles occur in which of the three files, read as raw bytes. */
function found(app: TestApp, needles: Scene['needles']): string[] {
  const hits: string[] = [];
  for (const file of FILES) {
    const full = path.join(app.dir, file);
    if (!existsSync(full)) continue;
    const bytes = readFileSync(full);
    for (const n of needles) if (bytes.includes(n.bytes)) hits.push(`${n.what} in ${file}`);
  }
  return hits;
}

const INJECT = graphql(`
  mutation ErasureInject($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      injected
    }
  }
`);

const CREATE_SET = graphql(`
  mutation ErasureCreateSet($apiKeyId: String!, $name: String!) {
    createEvaluationSet(apiKeyId: $apiKeyId, name: $name) {
      id
    }
  }
`);

const ADD_QUESTION = graphql(`
  mutation ErasureAddQuestion($apiKeyId: String!, $setId: ID!, $question: String!, $expected: [String!]!) {
    addEvaluationQuestion(apiKeyId: $apiKeyId, setId: $setId, question: $question, expected: $expected) {
      id
    }
  }
`);

const RUN = graphql(`
  mutation ErasureRun($apiKeyId: String!, $setId: ID!) {
    runEvaluation(apiKeyId: $apiKeyId, setId: $setId) {
      id
    }
  }
`);

/** An evaluation set named after the marker, a question holding it, and a run that kept the question's text. */
async function evaluateAsking(app: TestApp, apiKeyId: string, marker: string, markerId: string) {
  const { id: setId } = (await app.ok(CREATE_SET, { apiKeyId, name: `set ${marker}` })).createEvaluationSet;
  await app.ok(ADD_QUESTION, { apiKeyId, setId, question: `Which locker word is ${marker}?`, expected: [markerId] });
  await app.ok(RUN, { apiKeyId, setId });
}

/** The injection log on, and a request that asks about the marker: the log keeps its query and its receipt. */
async function injectAsking(app: TestApp, apiKeyId: string, marker: string) {
  await app.ok(UPDATE_SETTINGS, { input: { injectionLogDays: 30 } });
  const request = { model: 'gpt-4o', messages: [{ role: 'user', content: `What is the locker word ${marker}?` }] };
  await app.ok(INJECT, { input: { request, provider: 'openai/gpt-4o', retrieval: { apiKeyId } } });
  const logged = await app.database.db.selectFrom('injection_log').select('query').where('api_key_id', '=', apiKeyId).execute();
  expect(logged.map((r) => r.query)).toEqual([`What is the locker word ${marker}?`]);
}

/** Who deleted the key's memories (one memory's, when named), as their tombstones record it. */
async function tombstonesOf(app: TestApp, apiKeyId: string, memoryId?: string) {
  let q = app.database.db.selectFrom('tombstones').select('deleted_by').where('api_key_id', '=', apiKeyId);
  if (memoryId) q = q.where('memory_id', '=', memoryId);
  return (await q.execute()).map((r) => r.deleted_by);
}

const pointsHolding = (qdrant: QdrantDouble, text: string) =>
  [...(qdrant.collections.get('mnemo_memory')?.points.values() ?? [])].filter((p) => JSON.stringify(p).includes(text)).length;

/** After the erase: the worker runs, the WAL is checkpointed, and nothing of the marker is left anywhere. */
async function expectErased(s: Scene) {
  await drainWorker(s.app);
  checkpoint(s.app);
  expect(found(s.app, s.needles)).toEqual([]);
  expect(pointsHolding(s.qdrant, s.marker)).toBe(0);
}

// SQLite: the bytes of its three files are scanned. PostgreSQL's files are the server's: its tables are read page by
// page instead, below.
describe.skipIf(testStoreKind() === 'postgres')('a deleted text appears nowhere in the database files, nor in Qdrant', () => {
  it('after deleteMemory (its summary rebuilt without it)', async () => {
    const s = await scene();
    await s.app.ok(DELETE_MEMORY, { id: s.markerId });
    const summary = (await s.app.ok(GET_MEMORY, { id: s.summaryId })).memory;
    expect(summary!.content).toContain('mango');
    expect(await tombstonesOf(s.app, s.apiKeyId, s.markerId)).toEqual(['admin']);
    await expectErased(s);
  });

  it('after clearMemories', async () => {
    const s = await scene();
    expect((await s.app.ok(CLEAR_MEMORIES, { apiKeyId: s.apiKeyId })).clearMemories).toBe(12);
    expect(await tombstonesOf(s.app, s.apiKeyId, s.markerId)).toEqual(['admin']);
    await expectErased(s);
  });

  it('after forgetApiKey, which also leaves neither the API key nor its tenant prefix, nor its injection log, tombstones and evaluation sets', async () => {
    const s = await scene();
    await injectAsking(s.app, s.apiKeyId, s.marker);
    await evaluateAsking(s.app, s.apiKeyId, s.marker, s.markerId);
    await s.app.ok(DELETE_MEMORY, { id: s.summaryId });
    expect(await tombstonesOf(s.app, s.apiKeyId)).toEqual(['admin']);
    await s.app.ok(FORGET_API_KEY, { apiKeyId: s.apiKeyId });
    s.needles.push(
      { what: 'the API key', bytes: Buffer.from(s.apiKeyId) },
      { what: "the key's tenant prefix", bytes: Buffer.from(tenantPrefix(s.apiKeyId)) },
    );
    expect(await tombstonesOf(s.app, s.apiKeyId)).toEqual([]);
    await expectErased(s);
  });

  it("nor in a temporary file: SQLite keeps its temporary data (a statement's undo images, sorts) in memory", async () => {
    const s = await scene();
    expect(s.app.database.sqlite.pragma('temp_store', { simple: true })).toBe(2);
  });

  it('after the purge deleted it (expired past the grace days; its summary rebuilt without it)', async () => {
    const s = await scene();
    await s.app.ok(UPDATE_MEMORY, { id: s.markerId, input: { expiresAt: new Date(Date.now() - 8 * DAY).toISOString() } });
    const outcome = await s.app.services.purge.pass();
    expect(outcome).toMatchObject({ expired: 1 });
    expect(await tombstonesOf(s.app, s.apiKeyId, s.markerId)).toEqual(['purge']);
    await expectErased(s);
  });
});

/**
 * PostgreSQL: a deleted row stays in its table's pages, readable to anyone with the files, until VACUUM removes it; the
 * erase paths vacuum the tables they touched (db/vacuum.postgres.ts). The pages are read through pageinspect: every row
 * version a heap page holds (live or dead) and every entry of every index, for the marker. What this cannot see, and
 * PostgreSQL keeps: the freed space of a page is not zeroed (its bytes stay until a later row reuses it), and the
 * write-ahead log holds the rows until its segments are recycled.
 */
describe.skipIf(testStoreKind() === 'sqlite')('a deleted text leaves no row version in the PostgreSQL tables', () => {
  const TABLES = [
    'memories',
    'supersessions',
    'memory_versions',
    'memory_search',
    'memory_postings',
    'memory_search_stats',
    'memory_counts',
    'retrieval_stats',
    'audit_log',
    'injection_log',
    'tombstones',
    'evaluation_sets',
    'evaluation_questions',
    'evaluation_runs',
  ];

  /** A key with ten facts and the marker's memory (its content and key), compacted into one summary. */
  async function pgScene() {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    await sql`create extension if not exists pageinspect`.execute(app.database.db);
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true, retentionDays: 90 } });
    const marker = `zqv${randomBytes(8).toString('hex')}7`;
    const apiKeyId = `audit-${randomBytes(4).toString('hex')}`;
    const written = new Date(Date.now() - 40 * DAY).toISOString();
    const markerKey = `note-${marker}`;
    // Its first wording, which the import below replaces: the history keeps it as a version.
    await app.ok(IMPORT_MEMORIES, {
      memories: [{ apiKeyId, key: markerKey, content: `The old locker word was ${marker}`, createdAt: written }],
    });
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        ...['banana', 'mango', 'cherry', 'papaya', 'apple', 'python', 'rust', 'paris', 'hotel', 'jazz'].map((word, i) => ({
          apiKeyId,
          key: `f${i}`,
          content: `I like ${word}`,
          createdAt: written,
        })),
        { apiKeyId, key: markerKey, content: `The piano tennis umbrella locker word is ${marker}`, createdAt: written },
      ],
    });
    const { summarize } = await app.ok(SUMMARIZE, { apiKeyId, olderThanDays: 30, dryRun: false });
    expect(summarize.summaries[0]!.content).toContain(marker);
    // The planner's statistics may be refreshed at any moment (autovacuum's ANALYZE).
    await sql`analyze`.execute(app.database.db);
    const { id: markerId } = await app.database.db
      .selectFrom('memories')
      .select('id')
      .where('key', '=', markerKey)
      .executeTakeFirstOrThrow();
    await supersedeWithMarker(app, apiKeyId, markerId, marker);
    // The scan sees the marker while it is stored: in the memory, the summary, its earlier version, the (api_key_id,
    // key) index, the keyword index (its tsvector and its postings, in the table and in the B-tree) and the
    // supersession's sentence.
    expect(await rowVersionsHolding(app, marker)).toEqual(
      expect.arrayContaining([
        'memories',
        'memory_versions',
        'memories_api_key_key_unique',
        'memory_search',
        'memory_postings',
        'memory_postings_by_word',
        'supersessions',
      ]),
    );
    return { app, apiKeyId, marker, markerId, summaryId: summarize.summaries[0]!.id };
  }

  /** The tables and indexes of TABLES whose pages hold `text` in a row version (live or dead) or an index entry. */
  async function rowVersionsHolding(app: TestApp, text: string): Promise<string[]> {
    const needle = Buffer.from(text);
    const hex = [...needle].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const { rows } = await sql<{ relation: string }>`
      with tables as (select unnest(${TABLES}::regclass[]) as oid),
      rels as (
        select c.oid::regclass::text as relname, c.oid, c.relkind, (select amname from pg_am where pg_am.oid = c.relam) as am from pg_class c
        where c.oid in (select oid from tables)
          or c.oid in (select indexrelid from pg_index where indrelid in (select oid from tables))
          or c.oid in (select reltoastrelid from pg_class where oid in (select oid from tables))
      ),
      blocks as (
        select rels.*, b from rels, generate_series(0, (pg_relation_size(rels.oid) / 8192)::int - 1) as b
      )
      select distinct relname as relation from blocks
      where (relkind in ('r', 't') and exists (
          select 1 from heap_page_items(get_raw_page(relname, b)) h where position(${needle} in h.t_data) > 0))
        or (am = 'btree' and b > 0 and (select type from bt_page_stats(relname, b)) <> 'd' and exists (
          select 1 from bt_page_items(relname, b) i where position(${hex} in i.data) > 0))
        -- Other kinds of index (GIN keeps every key it once held) are read as raw pages, free space included.
        or (relkind = 'i' and am <> 'btree' and position(${needle} in get_raw_page(relname, b)) > 0)
      order by 1`.execute(app.database.db);
    return rows.map((r) => r.relation);
  }

  /** Values of the planner's statistics that hold `text` (ANALYZE copies sampled values into pg_statistic). */
  async function statisticsHolding(app: TestApp, text: string) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from pg_stats where tablename = any(${TABLES})
      and concat(most_common_vals::text, histogram_bounds::text, most_common_elems::text) like ${`%${text}%`}`.execute(app.database.db);
    return rows[0]!.n;
  }

  async function expectNoRowVersion(s: Awaited<ReturnType<typeof pgScene>>, ...texts: string[]) {
    await sql`analyze`.execute(s.app.database.db);
    for (const text of [s.marker, ...texts]) {
      expect(await rowVersionsHolding(s.app, text)).toEqual([]);
      expect(await statisticsHolding(s.app, text)).toBe(0);
    }
  }

  it('after deleteMemory (its summary rebuilt without it)', async () => {
    const s = await pgScene();
    await s.app.ok(DELETE_MEMORY, { id: s.markerId });
    const summary = (await s.app.ok(GET_MEMORY, { id: s.summaryId })).memory;
    expect(summary!.content).toContain('mango');
    expect(await tombstonesOf(s.app, s.apiKeyId, s.markerId)).toEqual(['admin']);
    await expectNoRowVersion(s);
  });

  it('after clearMemories', async () => {
    const s = await pgScene();
    expect((await s.app.ok(CLEAR_MEMORIES, { apiKeyId: s.apiKeyId })).clearMemories).toBe(12);
    expect(await tombstonesOf(s.app, s.apiKeyId, s.markerId)).toEqual(['admin']);
    await expectNoRowVersion(s);
  });

  it('after forgetApiKey, which also leaves no row version naming the API key, nor its injection log, tombstones and evaluation sets', async () => {
    const s = await pgScene();
    await injectAsking(s.app, s.apiKeyId, s.marker);
    await evaluateAsking(s.app, s.apiKeyId, s.marker, s.markerId);
    expect(await rowVersionsHolding(s.app, s.marker)).toEqual(
      expect.arrayContaining(['injection_log', 'evaluation_sets', 'evaluation_questions', 'evaluation_runs']),
    );
    await s.app.ok(DELETE_MEMORY, { id: s.summaryId });
    expect(await rowVersionsHolding(s.app, s.apiKeyId)).toContain('tombstones');
    await s.app.ok(FORGET_API_KEY, { apiKeyId: s.apiKeyId });
    expect(await tombstonesOf(s.app, s.apiKeyId)).toEqual([]);
    await expectNoRowVersion(s, s.apiKeyId);
  });

  it('after the purge deleted it (expired past the grace days; its summary rebuilt without it)', async () => {
    const s = await pgScene();
    await s.app.ok(UPDATE_MEMORY, { id: s.markerId, input: { expiresAt: new Date(Date.now() - 8 * DAY).toISOString() } });
    expect(await s.app.services.purge.pass()).toMatchObject({ expired: 1 });
    expect(await tombstonesOf(s.app, s.apiKeyId, s.markerId)).toEqual(['purge']);
    await expectNoRowVersion(s);
  });
});
