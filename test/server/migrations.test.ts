import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { type OpenedDatabase, openDatabase } from '../../server/db/open.ts';
import { createLogger } from '../../server/logger.ts';
import { listMemories } from '../../server/memory/memory.service.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import { createServices } from '../../server/services.ts';
import { writeSettings } from '../../server/settings/settings.repository.ts';
import { memoryRow, recently } from '../helpers/memoryRow.ts';

let opened: OpenedDatabase | null = null;
let dir = '';
afterEach(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function databaseAt(migration: string) {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-migrate-'));
  opened = openDatabase(path.join(dir, 'mnemo.db'));
  const { error } = await new Migrator({ db: opened.db, provider: { getMigrations: async () => migrations } }).migrateTo(migration);
  if (error) throw error;
  return opened;
}

describe('upgrading to per-key keyword terms (migration 004)', () => {
  it('keeps every memory searchable, per key and across keys, with the right per-key counts', async () => {
    const { db } = await databaseAt('2026_11_30_003_qdrant_outbox');
    await db
      .insertInto('memories')
      .values([
        memoryRow('mig-a', 1, { key: 'drink', content: 'Drinks oolong tea', ...recently(1) }),
        memoryRow('mig-a', 2, { key: 'city', content: 'Lives in Porto', ...recently(2) }),
        memoryRow('mig-b', 3, { key: 'drink', content: 'Drinks oolong coffee', ...recently(3) }),
      ] as never)
      .execute();

    await migrateToLatest(db);
    const services = createServices({ db, logger: createLogger('silent') });
    await services.settings.update({ enabled: true });
    const found = await retrieve(services, { apiKeyId: 'mig-a', query: 'oolong', strategy: 'HYBRID' }, { record: false });
    expect(found.items.map((i) => i.memory.content)).toEqual(['Drinks oolong tea']);
    const acrossKeys = await listMemories(services, { apiKeyId: null, search: 'oolong' });
    expect(acrossKeys.items.map((m) => m.content).sort()).toEqual(['Drinks oolong coffee', 'Drinks oolong tea']);
    const { rows } = await sql<{ api_key_id: string; memories: number }>`select * from memory_counts order by api_key_id`.execute(db);
    expect(rows).toEqual([
      { api_key_id: 'mig-a', memories: 2 },
      { api_key_id: 'mig-b', memories: 1 },
    ]);
  });

  it('goes back down to the tenant-token index, which still finds every memory', async () => {
    const { db } = await databaseAt('2026_11_30_004_tenant_terms_fts');
    await db
      .insertInto('memories')
      .values({
        id: '00000000-0000-4000-8000-000000000009',
        api_key_id: 'mig-c',
        type: 'factual',
        key: 'pet',
        content: 'Has a tabby cat',
        metadata: '{}',
        tokens: 5,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
      '2026_11_30_003_qdrant_outbox',
    );
    if (error) throw error;
    const { rows } = await sql<{ rowid: number }>`select rowid from memories_fts where memories_fts match 'tabby'`.execute(db);
    expect(rows).toHaveLength(1);
  });
});

describe('per-key row counts', () => {
  it('follow inserts and deletes', async () => {
    const { db } = await databaseAt('2026_11_30_004_tenant_terms_fts');
    await db
      .insertInto('memories')
      .values([memoryRow('cnt-a', 1), memoryRow('cnt-a', 2), memoryRow('cnt-a', 3)] as never)
      .execute();
    await db.deleteFrom('memories').where('key', '=', 'k2').execute();
    const { rows } = await sql<{ memories: number }>`select memories from memory_counts where api_key_id = 'cnt-a'`.execute(db);
    expect(rows).toEqual([{ memories: 2 }]);
  });
});

describe('summaries that mixed sessions (migration 006)', () => {
  const memory = (i: number, over: Record<string, unknown>) => memoryRow('mix', i, over);
  const SUMMARY_A = memoryRow('mix', 9).id;
  const SUMMARY_B = memoryRow('mix', 8).id;

  it("are undone: a key-wide summary holding a session's memories would inject them into every other session", async () => {
    const { db } = await databaseAt('2026_12_01_005_keyless_providers');
    await db
      .insertInto('memories')
      .values([
        memory(9, { id: SUMMARY_A, key: 'summary:a', type: 'semantic', metadata: '{"summary":{"count":2}}' }),
        memory(1, { session_id: 's1', archived_by: SUMMARY_A }),
        memory(2, { archived_by: SUMMARY_A }),
        memory(8, { id: SUMMARY_B, key: 'summary:b', type: 'semantic', metadata: '{"summary":{"count":2}}' }),
        memory(3, { archived_by: SUMMARY_B }),
        memory(4, { archived_by: SUMMARY_B }),
      ] as never)
      .execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('memories').select(['key', 'archived_by']).orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'k1', archived_by: null },
      { key: 'k2', archived_by: null },
      { key: 'k3', archived_by: SUMMARY_B },
      { key: 'k4', archived_by: SUMMARY_B },
      { key: 'summary:b', archived_by: null },
    ]);
    expect(await db.selectFrom('summary_rebuilds').selectAll().execute()).toEqual([]);
  });
});

describe('the Qdrant outbox flag (migration 008)', () => {
  /** What the outbox holds after a memory is written and deleted. */
  const queuedForADelete = async (db: OpenedDatabase['db']) => {
    await db
      .insertInto('memories')
      .values(memoryRow('ob', 1) as never)
      .execute();
    await db.deleteFrom('memories').execute();
    return (await db.selectFrom('qdrant_outbox').select('op').execute()).map((r) => r.op);
  };
  const settingRow = (value: string) => ({ name: 'vectorStore', value, updated_at: 0 });

  it.each([
    ['"QDRANT"', 1, ['delete']],
    ['"SQLITE_VEC"', 0, []],
  ])('after an upgrade with vectorStore %s, is %i, and the outbox fills only when on', async (stored, enabled, queued) => {
    const { db } = await databaseAt('2026_12_01_007_profile_index');
    await db.insertInto('settings').values(settingRow(stored)).execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('qdrant_outbox_state').selectAll().execute()).toEqual([{ id: 1, enabled }]);
    expect(await queuedForADelete(db)).toEqual(queued);
  });

  it('follows vectorStore as the settings change it, whatever the settings row holds', async () => {
    const { db } = await databaseAt('2026_12_01_008_qdrant_outbox_flag');
    // The settings' write path, not the service: today's service also reads tables of later migrations.
    await writeSettings(db, { vectorStore: 'QDRANT' }, 0);
    expect((await db.selectFrom('qdrant_outbox_state').select('enabled').executeTakeFirstOrThrow()).enabled).toBe(1);
    // The triggers read the flag, not the settings row: rewriting the row by hand changes nothing for them.
    await db.updateTable('settings').set({ value: '"AUTO"' }).where('name', '=', 'vectorStore').execute();
    expect(await queuedForADelete(db)).toEqual(['delete']);
    await writeSettings(db, { vectorStore: 'AUTO' }, 0);
    expect((await db.selectFrom('qdrant_outbox_state').select('enabled').executeTakeFirstOrThrow()).enabled).toBe(0);
  });

  it('goes back down to triggers that read the settings row', async () => {
    const { db } = await databaseAt('2026_12_01_008_qdrant_outbox_flag');
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
      '2026_12_01_007_profile_index',
    );
    if (error) throw error;
    await db.insertInto('settings').values(settingRow('"QDRANT"')).execute();
    expect(await queuedForADelete(db)).toEqual(['delete']);
  });
});

describe('the keyword index that forgets (migration 009)', () => {
  /** Whether the index's segments hold this text, read as bytes (a MATCH would skip rows marked deleted). */
  const inSegments = async (db: OpenedDatabase['db'], text: string) => {
    const { rows } = await sql<{ n: number }>`select count(*) as n from memories_fts_data where instr(block, ${text}) > 0`.execute(db);
    return rows[0]!.n > 0;
  };
  const now = { created_at: Date.now(), updated_at: Date.now() };

  it('keeps every memory searchable after the upgrade, per key and across keys', async () => {
    const { db } = await databaseAt('2026_12_01_008_qdrant_outbox_flag');
    await db
      .insertInto('memories')
      .values([
        memoryRow('fg-a', 1, { content: 'Drinks oolong tea', ...now }),
        memoryRow('fg-b', 2, { content: 'Drinks oolong coffee', ...now }),
      ] as never)
      .execute();
    await migrateToLatest(db);
    const services = createServices({ db, logger: createLogger('silent') });
    await services.settings.update({ enabled: true });
    const found = await retrieve(services, { apiKeyId: 'fg-a', query: 'oolong', strategy: 'EXACT' }, { record: false });
    expect(found.items.map((i) => i.memory.content)).toEqual(['Drinks oolong tea']);
    expect((await listMemories(services, { apiKeyId: null, search: 'oolong' })).totalCount).toBe(2);
  });

  it("removes a deleted memory's terms from the index's segments, where before they stayed until a merge", async () => {
    const before = await databaseAt('2026_12_01_008_qdrant_outbox_flag');
    await before.db
      .insertInto('memories')
      .values(memoryRow('fg-c', 1, { content: 'Codeword quetzalcoatl' }) as never)
      .execute();
    await before.db.deleteFrom('memories').execute();
    expect(await inSegments(before.db, 'quetzalcoatl')).toBe(true);
    await before.close();
    opened = null;
    rmSync(dir, { recursive: true, force: true });

    const { db } = await databaseAt('2026_12_02_009_erasable_keyword_index');
    await db
      .insertInto('memories')
      .values(memoryRow('fg-c', 1, { content: 'Codeword quetzalcoatl' }) as never)
      .execute();
    expect(await inSegments(db, 'quetzalcoatl')).toBe(true);
    await db.deleteFrom('memories').execute();
    expect(await inSegments(db, 'quetzalcoatl')).toBe(false);
  });

  it('goes back down to the contentless-delete index, which still finds every memory', async () => {
    const { db } = await databaseAt('2026_12_02_009_erasable_keyword_index');
    await db
      .insertInto('memories')
      .values(memoryRow('fg-d', 1, { content: 'Has a tabby cat' }) as never)
      .execute();
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
      '2026_12_01_008_qdrant_outbox_flag',
    );
    if (error) throw error;
    const { rows } = await sql<{ rowid: number }>`select rowid from memories_fts where memories_fts match 'tabby'`.execute(db);
    expect(rows).toHaveLength(1);
    await db.deleteFrom('memories').execute();
    expect((await sql`select rowid from memories_fts where memories_fts match 'tabby'`.execute(db)).rows).toEqual([]);
  });
});

describe("tokens' permission to forget their key (migration 010)", () => {
  it('is off for every token that existed before', async () => {
    const { db } = await databaseAt('2026_12_02_009_erasable_keyword_index');
    await db
      .insertInto('access_tokens')
      .values({ id: 't1', name: 'old', role: 'gateway', token_hash: 'h', api_key_id: 'k', created_at: 0 } as never)
      .execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('access_tokens').select(['id', 'may_forget_key']).execute()).toEqual([{ id: 't1', may_forget_key: 0 }]);
  });
});

describe('versions that keep the validity they had (migration 026)', () => {
  /** What the history holds, oldest first. */
  const versions = (db: OpenedDatabase['db']) =>
    sql`select version, content, valid_from, valid_to, superseded_by from memory_versions order by version`.execute(db).then((r) => r.rows);

  it('leaves a version kept before the upgrade without validity, and keeps it in those kept after', async () => {
    const { db } = await databaseAt('2026_12_06_024_injection_log');
    await db
      .insertInto('memories')
      .values(memoryRow('mig-v', 1, { content: 'Lives in Lyon', valid_from: 7 }) as never)
      .execute();
    await sql`update memories set content = 'Lives in Lyon, France'`.execute(db);
    await migrateToLatest(db);
    await sql`update memories set valid_to = 9, superseded_by = 'a-newer-memory'`.execute(db);
    expect(await versions(db)).toEqual([
      { version: 1, content: 'Lives in Lyon', valid_from: null, valid_to: null, superseded_by: null },
      { version: 2, content: 'Lives in Lyon, France', valid_from: 7, valid_to: null, superseded_by: null },
    ]);
  });

  it('goes back down to versions of wording only', async () => {
    const { db } = await databaseAt('2026_12_06_026_versions_keep_validity');
    await db
      .insertInto('memories')
      .values(memoryRow('mig-v', 1, { content: 'Lives in Lyon', valid_from: 7 }) as never)
      .execute();
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
      '2026_12_06_024_injection_log',
    );
    if (error) throw error;
    await sql`update memories set valid_to = 9`.execute(db);
    await sql`update memories set content = 'Lives in Lyon, France'`.execute(db);
    const { rows } = await sql`select version, content from memory_versions`.execute(db);
    expect(rows).toEqual([{ version: 1, content: 'Lives in Lyon' }]);
  });
});

describe('the fact index (migration 029)', () => {
  const indexed = (db: OpenedDatabase['db']) =>
    sql<{ n: number }>`select count(*) as n from memory_fact_signatures`.execute(db).then((r) => Number(r.rows[0]!.n));

  it('indexes the memories stored before the upgrade, so a restatement of one is found', async () => {
    const { db } = await databaseAt('2026_12_06_028_evaluation');
    await db
      .insertInto('memories')
      .values(memoryRow('mig-f', 1, { content: 'Lives in Berlin, Germany' }) as never)
      .execute();
    await migrateToLatest(db);
    // lives, berlin, germany: the three words, and each pair.
    expect(await indexed(db)).toBe(4);
    await sql`delete from memories`.execute(db);
    expect(await indexed(db)).toBe(0);
  });

  it('goes back down to a store without it', async () => {
    const { db } = await databaseAt('2026_12_06_029_fact_signatures');
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
      '2026_12_06_028_evaluation',
    );
    if (error) throw error;
    await db
      .insertInto('memories')
      .values(memoryRow('mig-f', 1, { content: 'Lives in Berlin, Germany' }) as never)
      .execute();
    const { rows } = await sql`select name from sqlite_master where name like 'memory_fact_signatures%'`.execute(db);
    expect(rows).toEqual([]);
  });
});
