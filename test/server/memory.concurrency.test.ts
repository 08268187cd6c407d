import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecorder } from '../../server/memory/accessRecorder.ts';
import { createMemory } from '../../server/memory/memory.service.ts';
import { SettingsService } from '../../server/settings/settings.service.ts';
import { keywordIndexFootprint } from '../helpers/keywordIndex.ts';
import { CREATE_MEMORY, IMPORT_MEMORIES, LIST_MEMORIES, type MemoryInput, UPDATE_MEMORY } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';
import { openTestStore, testStoreKind } from '../helpers/testStore.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const dbFile = () => path.join(app.dir, 'mnemo.db');
const create = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const rowsOf = (apiKeyId: string) =>
  app.database.db.selectFrom('memories').select(['id', 'key', 'content']).where('api_key_id', '=', apiKeyId).orderBy('pk').execute();
const searchCount = (apiKeyId: string, search: string) =>
  app.ok(LIST_MEMORIES, { apiKeyId, search, limit: 1 }).then((d) => d.memories.totalCount as number);

/**
 * Another process (like `mnemo token create` run beside the server) that takes the database's write lock,
 * writes, and holds the lock for `ms` before committing. Resolves once the lock is held.
 */
async function holdWriteLockInAnotherProcess(ms: number) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("insert or ignore into retrieval_stats (api_key_id, retrievals, hits) values ('other-process', 0, 0)").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, dbFile(), String(ms)], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    void exited.then((code) => reject(new Error(`lock holder exited early (${code}): ${stderr}`)));
  });
  return { released: exited.then((code) => ({ code, stderr })) };
}

describe('concurrent writes of one key', () => {
  it('keeps exactly one memory when 50 requests create the same key at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create({ apiKeyId: 'conc-1', key: 'shared', content: `version ${i}` })),
    );
    const rows = await rowsOf('conc-1');
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((m) => m.id))).toEqual(new Set([rows[0]!.id]));
    expect(results.map((m) => m.content)).toContain(rows[0]!.content);
  });

  it('loses no memory when 50 requests create different keys at once', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => create({ apiKeyId: 'conc-2', key: `k${i}`, content: `fact ${i}` })));
    expect(await rowsOf('conc-2')).toHaveLength(50);
  });

  it('keeps exactly one memory when two database connections write the same key interleaved', async () => {
    // Two more connections to the app's store (its SQLite file, or its PostgreSQL database), as two processes would have.
    const connections = [await openTestStore(app.dir), await openTestStore(app.dir)];
    try {
      const deps = connections.map((c) => ({
        db: c.db,
        now: Date.now,
        settings: new SettingsService({ db: c.db, now: Date.now }),
        access: new AccessRecorder(c.db),
      }));
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          createMemory(deps[i % 2]!, { apiKeyId: 'conc-3', key: 'shared', content: `from connection ${i % 2}, write ${i}` }),
        ),
      );
      const rows = await rowsOf('conc-3');
      expect(rows).toHaveLength(1);
      expect(new Set(results.map((m) => m.id))).toEqual(new Set([rows[0]!.id]));
    } finally {
      for (const c of connections) await c.close();
    }
  });
});

describe('a write inside a transaction', () => {
  it('is refused at once when it was not given the settings, instead of waiting for its own transaction', async () => {
    const write = app.database.db
      .transaction()
      .execute((trx) => createMemory({ ...app.services, db: trx }, { apiKeyId: 'conc-trx', content: 'never stored' }));
    await expect(write).rejects.toThrow(/given the settings read before it opened/);
    expect(await rowsOf('conc-trx')).toHaveLength(0);
  });
});

// SQLite's one write lock for the whole file; PostgreSQL has none (its row locks are what the tests above go through).
describe.skipIf(testStoreKind() === 'postgres')('writing while another process holds the database', () => {
  it('waits for the other process to commit, then creates the memory', async () => {
    const lock = await holdWriteLockInAnotherProcess(400);
    const m = await create({ apiKeyId: 'conc-4', key: 'waited', content: 'written after the other process committed' });
    expect(m.key).toBe('waited');
    expect((await lock.released).code).toBe(0);
  });

  it('waits for the other process to commit, then imports every row', async () => {
    const lock = await holdWriteLockInAnotherProcess(400);
    const res = await app.gql(IMPORT_MEMORIES, {
      memories: [
        { apiKeyId: 'conc-5', key: 'a', content: 'first imported row' },
        { apiKeyId: 'conc-5', key: 'b', content: 'second imported row' },
      ],
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.importMemories).toEqual({ imported: 2, updated: 0, rejected: [] });
    expect((await rowsOf('conc-5')).map((r) => r.key)).toEqual(['a', 'b']);
    expect((await lock.released).code).toBe(0);
  });
});

describe('the keyword index only changes when indexed text changes', () => {
  it('does not grow when memories are read, counted, marked indexed or given new metadata', async () => {
    const memories = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create({ apiKeyId: 'conc-6', key: `k${i}`, content: `stable words number ${i}`, metadata: { v: 0 } }),
      ),
    );
    const before = await keywordIndexFootprint(app.database);

    const { db } = app.database;
    for (let i = 0; i < 200; i++) {
      const m = memories[i % memories.length]!;
      await db
        .updateTable('memories')
        .set((eb) => ({ access_count: eb('access_count', '+', 1), last_accessed_at: Date.now() }))
        .where('id', '=', m.id)
        .execute();
      await db.updateTable('memories').set({ needs_reindex: 0 }).where('id', '=', m.id).execute();
    }
    for (const [i, m] of memories.entries()) {
      await app.ok(UPDATE_MEMORY, { id: m.id, input: { metadata: { v: i + 1 } } });
    }
    // Restating the same content under the same key only merges metadata.
    for (const [i, m] of memories.entries()) await create({ apiKeyId: 'conc-6', key: m.key, content: m.content, metadata: { again: i } });
    // Re-sending unchanged content and key through updateMemory is not a change either.
    for (const m of memories) await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: m.content, key: m.key } });
    for (let i = 0; i < 20; i++) await searchCount('conc-6', 'stable words');

    expect(await keywordIndexFootprint(app.database)).toEqual(before);
    expect(await searchCount('conc-6', 'stable')).toBe(20);
  });

  it('reindexes a memory whose content changes: new words are found, old ones no longer', async () => {
    const m = await create({ apiKeyId: 'conc-7', key: 'pet', content: 'The user owns a parrot' });
    expect(await searchCount('conc-7', 'parrot')).toBe(1);
    const before = await keywordIndexFootprint(app.database);

    await app.ok(UPDATE_MEMORY, { id: m.id, input: { content: 'The user owns a tortoise' } });

    expect(await searchCount('conc-7', 'tortoise')).toBe(1);
    expect(await searchCount('conc-7', 'parrot')).toBe(0);
    expect(await keywordIndexFootprint(app.database)).not.toEqual(before);
  });

  it('reindexes a memory whose key changes', async () => {
    const m = await create({ apiKeyId: 'conc-8', key: 'favourite-colour', content: 'teal' });
    await app.ok(UPDATE_MEMORY, { id: m.id, input: { key: 'preferred-shade' } });
    expect(await searchCount('conc-8', 'preferred')).toBe(1);
    expect(await searchCount('conc-8', 'favourite')).toBe(0);
  });

  it('reindexes when an upsert changes the content of an existing key', async () => {
    await create({ apiKeyId: 'conc-9', key: 'city', content: 'Lives in Lisbon' });
    await create({ apiKeyId: 'conc-9', key: 'city', content: 'Lives in Porto' });
    expect(await searchCount('conc-9', 'porto')).toBe(1);
    expect(await searchCount('conc-9', 'lisbon')).toBe(0);
  });
});
