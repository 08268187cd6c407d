import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  HealthProbeDocument as HEALTH,
  HealthEngineStoreDocument as STORE,
  HealthStoreKindDocument as STORE_KIND,
} from '../generated/graphql.ts';
import { IMPORT_MEMORIES, RETRIEVE, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
  // Existing data for the probe to leave alone: memories in two keys, their index entries, and retrieval counters.
  const memories = [
    ...['Uses the Helix editor', 'Deploys on Fridays', 'Keeps a health journal'].map((content) => ({ apiKeyId: 'health-a', content })),
    ...['Runs a health food shop', 'Likes probes and sensors'].map((content) => ({ apiKeyId: 'health-b', content })),
  ];
  await app.ok(IMPORT_MEMORIES, { memories });
  await app.ok(RETRIEVE, { input: { apiKeyId: 'health-a', query: 'health journal editor' } });
  await app.ok(RETRIEVE, { input: { apiKeyId: 'health-b', query: 'nothing matches this' } });
});
afterAll(() => app.close());

/** What a probe could leave behind in the tables both stores have, read once the access counts are written. */
async function snapshot() {
  await app.services.access.flush();
  const { db } = app.database;
  const count = async (table: 'memories' | 'memory_counts' | 'qdrant_outbox' | 'summary_rebuilds' | 'health_probe') =>
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  return {
    memories: await count('memories'),
    maxPk: (
      await db
        .selectFrom('memories')
        .select((eb) => eb.fn.max('pk').as('pk'))
        .executeTakeFirstOrThrow()
    ).pk,
    memoryCounts: await db.selectFrom('memory_counts').selectAll().orderBy('api_key_id').execute(),
    outbox: await count('qdrant_outbox'),
    summaryRebuilds: await count('summary_rebuilds'),
    healthProbe: await count('health_probe'),
    retrievalStats: await db.selectFrom('retrieval_stats').selectAll().orderBy('api_key_id').execute(),
    access: await db.selectFrom('memories').select(['id', 'access_count', 'last_accessed_at', 'updated_at']).orderBy('pk').execute(),
  };
}

/** What a probe could leave in SQLite's own structures: the FTS5 index's tables and the autoincrement sequence. */
function sqliteSnapshot() {
  const sqlite = app.database.sqlite;
  const all = (sql: string) => sqlite.prepare(sql).all();
  const one = (sql: string) => sqlite.prepare(sql).get();
  return {
    ftsData: one('select count(*) as n from memories_fts_data'),
    ftsIdx: one('select count(*) as n from memories_fts_idx'),
    ftsDocsize: one('select count(*) as n from memories_fts_docsize'),
    // A leftover index entry of the probe would still match its marker word.
    probeInIndex: one(`select count(*) as n from memories_fts where memories_fts match 'healthprobe*'`),
    sequence: all('select * from sqlite_sequence order by name'),
  };
}

const onSqlite = testStoreKind() === 'sqlite';

describe('memoryHealth', () => {
  it('reports ok with the create, read, search, delete, commit and disk checks and their latencies', async () => {
    const { memoryHealth: h } = await app.ok(HEALTH);
    expect(h.ok).toBe(true);
    expect(h.error).toBeNull();
    expect(h.checks.map((c) => c.name)).toEqual(['CREATE', 'READ', 'SEARCH', 'DELETE', 'COMMIT', 'DISK']);
    for (const c of h.checks) {
      expect(c.ok).toBe(true);
      expect(c.latencyMs).toBeGreaterThanOrEqual(0);
      expect(c.latencyMs).toBeLessThanOrEqual(h.latencyMs);
    }
    expect(h.latencyMs).toBeGreaterThan(0);
    expect(Math.abs(Date.parse(h.checkedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('leaves no trace: rows, counters, statistics and max pk are unchanged after 20 probes', async () => {
    const before = await snapshot();
    // The comparison means something only if there is something to compare.
    expect(before.memories).toBe(5);
    expect(before.retrievalStats).toHaveLength(2);
    expect(before.memoryCounts).toHaveLength(2);
    for (let i = 0; i < 20; i++) expect((await app.ok(HEALTH)).memoryHealth.ok).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it.skipIf(!onSqlite)('leaves no trace in the FTS5 index or the autoincrement sequence (SQLite: PostgreSQL has neither)', async () => {
    const before = sqliteSnapshot();
    expect(before.probeInIndex).toEqual({ n: 0 });
    expect((before.ftsData as { n: number }).n).toBeGreaterThan(0);
    expect(before.sequence).toContainEqual({ name: 'memories', seq: (await snapshot()).maxPk });
    for (let i = 0; i < 20; i++) expect((await app.ok(HEALTH)).memoryHealth.ok).toBe(true);
    expect(sqliteSnapshot()).toEqual(before);
  });

  it('leaves no trace when probes arrive all at once', async () => {
    const before = await snapshot();
    const results = await Promise.all(Array.from({ length: 20 }, () => app.ok(HEALTH)));
    expect(results.every((r) => r.memoryHealth.ok)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it('does not bump the access counts of existing memories, even those that share its words', async () => {
    const before = (await snapshot()).access;
    for (let i = 0; i < 5; i++) await app.ok(HEALTH);
    expect((await snapshot()).access).toEqual(before);
  });

  // PostgreSQL's sequences are not transactional: a rolled-back insert uses its number up (pks stay unique and rising).
  it.skipIf(!onSqlite)('gives the next real memory the pk it would have had without the probes (SQLite only)', async () => {
    const { maxPk } = await snapshot();
    for (let i = 0; i < 5; i++) await app.ok(HEALTH);
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'health-a', content: 'Written after the probes' }] });
    const row = app.database.sqlite.prepare(`select pk from memories where content = 'Written after the probes'`).get() as { pk: number };
    expect(row.pk).toBe(maxPk! + 1);
  });
});

describe('memoryHealth on a fresh server', () => {
  it('is healthy with no memory stored yet', async () => {
    const fresh = await startTestApp();
    try {
      const { memoryHealth: h } = await fresh.ok(HEALTH);
      expect(h).toMatchObject({ ok: true, error: null });
      expect(h.checks.map((c) => [c.name, c.ok])).toEqual(
        ['CREATE', 'READ', 'SEARCH', 'DELETE', 'COMMIT', 'DISK'].map((name) => [name, true]),
      );
      expect(await fresh.database.db.selectFrom('memories').select('pk').execute()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('the store in use', () => {
  it('is named by memoryHealth', async () => {
    const { memoryHealth } = await app.ok(STORE_KIND);
    expect(memoryHealth).toEqual({ store: testStoreKind().toUpperCase(), ok: true });
  });

  it.skipIf(!onSqlite)('is named by engineStatus with its file (SQLite)', async () => {
    const { engineStatus } = await app.ok(STORE);
    expect(engineStatus.store).toMatchObject({ kind: 'SQLITE', available: true, error: null, file: path.join(app.dir, 'mnemo.db') });
    expect(engineStatus.store).toMatchObject({ host: null, port: null, database: null });
    expect(engineStatus.store.version).toMatch(/^3\.\d+\.\d+$/);
  });

  it.skipIf(onSqlite)('is named by engineStatus with its server and database, as PostgreSQL reports them', async () => {
    const { engineStatus } = await app.ok(STORE);
    const { rows } = await sql<{ database: string }>`select current_database() as database`.execute(app.database.db);
    expect(engineStatus.store).toMatchObject({ kind: 'POSTGRES', available: true, error: null, file: null, host: '127.0.0.1' });
    expect(engineStatus.store.port).toBe(Number(new URL(inject('postgresUrl')!).port));
    expect(engineStatus.store.database).toBe(rows[0]!.database);
    expect(engineStatus.store.version).toMatch(/^15\.\d+/);
  });
});
