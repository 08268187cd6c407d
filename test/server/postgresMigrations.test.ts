import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { postgresMigrations } from '../../migrations/postgres/index.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import type { Db, OpenedStore } from '../../server/db/open.ts';
import { openPostgres } from '../../server/db/open.ts';
import { createLogger } from '../../server/logger.ts';
import { listMemories } from '../../server/memory/memory.service.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import { createServices } from '../../server/services.ts';
import { memoryRow, recently } from '../helpers/memoryRow.ts';
import { dropDatabase, ensureDatabase } from '../helpers/postgres.ts';

// Runs in the postgres project only (vitest.config.ts, POSTGRES_ONLY): upgrades of PostgreSQL's own migration set, as
// migrations.test.ts does for SQLite's.
const serverUrl = () => {
  const url = inject('postgresUrl');
  if (!url) throw new Error('PostgreSQL migration tests need the postgres project (its globalSetup starts the cluster)');
  return url;
};

let opened: { store: OpenedStore; name: string } | null = null;
afterEach(async () => {
  if (!opened) return;
  await opened.store.close();
  await dropDatabase(serverUrl(), opened.name);
  opened = null;
});

async function databaseAt(migration: string): Promise<Db> {
  const name = `migrate_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const store = openPostgres(await ensureDatabase(serverUrl(), name), { poolSize: 2 });
  opened = { store, name };
  const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => postgresMigrations } });
  const { error } = await migrator.migrateTo(migration);
  if (error) throw error;
  return store.db;
}

async function storeMemories(db: Db) {
  await db
    .insertInto('memories')
    .values([
      memoryRow('mig-a', 1, { key: 'drink', content: 'Drinks oolong tea at the café', ...recently(1) }),
      memoryRow('mig-a', 2, { key: 'city', content: 'Lives in Porto', ...recently(2) }),
      memoryRow('mig-b', 3, { key: 'drink', content: 'Drinks oolong coffee', ...recently(3) }),
    ] as never)
    .execute();
}

async function keywordResults(db: Db, apiKeyId: string, query: string) {
  const services = createServices({ db, logger: createLogger('silent') });
  await services.settings.update({ enabled: true });
  const found = await retrieve(services, { apiKeyId, query, strategy: 'HYBRID' }, { record: false });
  return found.items.map((i) => i.memory.content);
}

describe('the keyword index as postings, stemmed like SQLite (PostgreSQL migration 005)', () => {
  it('keeps every memory searchable after the upgrade, per key and across keys', async () => {
    const db = await databaseAt('2026_12_02_004_replica_coordination');
    await storeMemories(db);
    await migrateToLatest(db);
    expect(await keywordResults(db, 'mig-a', 'oolong')).toEqual(['Drinks oolong tea at the café']);
    // Accents removed, as SQLite's unicode61 removes them: before 005, "cafe" did not find "café".
    expect(await keywordResults(db, 'mig-a', 'cafe')).toEqual(['Drinks oolong tea at the café']);
    const services = createServices({ db, logger: createLogger('silent') });
    const acrossKeys = await listMemories(services, { apiKeyId: null, search: 'oolong' });
    expect(acrossKeys.items.map((m) => m.content).sort()).toEqual(['Drinks oolong coffee', 'Drinks oolong tea at the café']);
  });

  it('counts every indexed memory and word in the totals, and each memory under its own key', async () => {
    const db = await databaseAt('2026_12_02_004_replica_coordination');
    await storeMemories(db);
    await migrateToLatest(db);
    const { rows } = await sql<{ documents: number; tokens: number; postings: number; keys: number }>`select
        (select sum(documents)::int from memory_search_totals) as documents,
        (select sum(tokens)::int from memory_search_totals) as tokens,
        (select count(distinct pk)::int from memory_postings) as postings,
        (select count(distinct (tenant, pk))::int from memory_postings) as keys`.execute(db);
    // Each memory's key and content: 1+6, 1+3 and 1+3 words.
    expect(rows[0]).toEqual({ documents: 3, tokens: 15, postings: 3, keys: 3 });
  });

  it('goes back down to the GIN-only index, which still finds every memory', async () => {
    const db = await databaseAt('2026_12_02_005_keyword_postings');
    await storeMemories(db);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => postgresMigrations } });
    const { error } = await migrator.migrateTo('2026_12_02_004_replica_coordination');
    if (error) throw error;
    // The search code of today reads the postings: the index left behind is checked as migration 002 left it.
    const { rows: found } = await sql<{ content: string }>`select m.content from memory_search as s join memories as m using (pk)
      where s.api_key_id = 'mig-b' and s.terms @@ phraseto_tsquery('mnemo_english', 'coffee')`.execute(db);
    expect(found.map((r) => r.content)).toEqual(['Drinks oolong coffee']);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = 'memory_postings'`.execute(db);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('versions that keep the validity they had (PostgreSQL migration 014)', () => {
  const lyon = memoryRow('mig-v', 1, { content: 'Lives in Lyon', valid_from: 7 });

  it('leaves a version kept before the upgrade without validity, and keeps it in those kept after', async () => {
    const db = await databaseAt('2026_12_06_012_injection_log');
    await db
      .insertInto('memories')
      .values(lyon as never)
      .execute();
    await sql`update memories set content = 'Lives in Lyon, France'`.execute(db);
    await migrateToLatest(db);
    await sql`update memories set valid_to = 9, superseded_by = 'a-newer-memory'`.execute(db);
    const { rows } = await sql`select version, content, valid_from, valid_to, superseded_by from memory_versions order by version`.execute(
      db,
    );
    expect(rows).toEqual([
      { version: 1, content: 'Lives in Lyon', valid_from: null, valid_to: null, superseded_by: null },
      { version: 2, content: 'Lives in Lyon, France', valid_from: 7, valid_to: null, superseded_by: null },
    ]);
  });

  it('goes back down to versions of wording only', async () => {
    const db = await databaseAt('2026_12_06_014_versions_keep_validity');
    await db
      .insertInto('memories')
      .values(lyon as never)
      .execute();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => postgresMigrations } });
    const { error } = await migrator.migrateTo('2026_12_06_012_injection_log');
    if (error) throw error;
    await sql`update memories set valid_to = 9`.execute(db);
    await sql`update memories set content = 'Lives in Lyon, France'`.execute(db);
    const { rows } = await sql`select version, content from memory_versions`.execute(db);
    expect(rows).toEqual([{ version: 1, content: 'Lives in Lyon' }]);
  });
});

describe('the fact index (PostgreSQL migration 018)', () => {
  const berlin = memoryRow('mig-f', 1, { content: 'Lives in Berlin, Germany', valid_from: 1 });
  const indexed = (db: Db) =>
    sql<{ n: string }>`select count(*) as n from memory_fact_signatures`.execute(db).then((r) => Number(r.rows[0]!.n));

  it('indexes the memories stored before the upgrade, and follows their deletes', async () => {
    const db = await databaseAt('2026_12_06_017_evaluation');
    await db
      .insertInto('memories')
      .values(berlin as never)
      .execute();
    await migrateToLatest(db);
    // lives, berlin, germany: the three words, and each pair.
    expect(await indexed(db)).toBe(4);
    await sql`delete from memories`.execute(db);
    expect(await indexed(db)).toBe(0);
  });

  it('goes back down to a store without it', async () => {
    const db = await databaseAt('2026_12_06_018_fact_signatures');
    const migrator = new Migrator({ db, provider: { getMigrations: async () => postgresMigrations } });
    const { error } = await migrator.migrateTo('2026_12_06_017_evaluation');
    if (error) throw error;
    await db
      .insertInto('memories')
      .values(berlin as never)
      .execute();
    const { rows } = await sql`select to_regclass('memory_fact_signatures') as t`.execute(db);
    expect(rows).toEqual([{ t: null }]);
  });
});
