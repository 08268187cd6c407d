import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryHistory } from '../../server/memory/history.service.ts';
import { createMemory, deleteMemory, listMemories, updateMemory } from '../../server/memory/memory.service.ts';
import { supersede } from '../../server/memory/supersession.service.ts';
import { keyDigest } from '../../server/memory/tombstones.ts';
import { writeBundleFile } from '../../server/portability/export/writeBundle.ts';
import { importFile } from '../../server/portability/importFile.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// mnemo's export bundle: every memory with its versions, validity and supersession, and the tombstones of deleted
// ones, checked by its header's checksum; imported into an empty store, it gives the same memories, history and
// validity.

const all = () => true;
const opened: TestDb[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});
async function store() {
  const t = await openTestDb();
  opened.push(t);
  return t;
}

/** A key whose memories have a history, a supersession between them and a deleted one; another key beside it. */
async function source() {
  const t = await store();
  const s = t.services;
  const lyon = await createMemory(s, { apiKeyId: 'ada', sessionId: 'chat-1', key: 'home', content: 'Lives in Lyon' });
  await updateMemory(s, lyon.id, { content: 'Lives in Lyon, France', metadata: { source: 'profile' } }, all, {
    by: 'tok-1',
    why: 'updateMemory',
  });
  const paris = await createMemory(s, { apiKeyId: 'ada', sessionId: 'chat-1', key: 'home-now', content: 'Lives in Paris' });
  await supersede(s, { apiKeyId: 'ada', oldId: lyon.id, newId: paris.id, rule: 'moved_to', sentence: 'I moved to Paris' });
  const gone = await createMemory(s, { apiKeyId: 'ada', key: 'secret-plan', content: 'Plans a surprise party' });
  await deleteMemory(s, gone.id, all, 'tok-1');
  await createMemory(s, { apiKeyId: 'bob', key: 'tea', content: 'Drinks green tea', expiresAt: new Date(Date.now() + 86_400_000) });
  return t;
}

async function exported(t: TestDb, apiKeyId: string | null = null) {
  const file = path.join(t.dir, 'bundle.jsonl');
  const header = await writeBundleFile(t.database.db, { apiKeyId, now: t.services.now() }, file);
  return { file, header };
}

const importInto = (t: TestDb, file: string) =>
  importFile(t.services, { format: 'jsonl', file, dryRun: false, placement: { apiKeyId: null, keyFrom: null, sessionFrom: null } });

/** What a store holds, by key, with ids replaced by the key of the memory they name: comparable across stores. */
async function state(t: TestDb) {
  const db = t.database.db;
  const memories = (
    await listMemories(
      t.services,
      { apiKeyId: null, includeExpired: true, includeSuperseded: true, includeArchived: true },
      { limit: 100, orderBy: 'key', direction: 'asc' },
    )
  ).items;
  const keyOf = new Map(memories.map((m) => [m.id, m.key]));
  const named = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? `unknown ${id}`));
  const out = [];
  for (const m of memories) {
    const versions = (await memoryHistory(t.services, m.id, all)).map(({ version, supersededBy, ...v }) => ({
      ...v,
      version,
      supersededBy: named(supersededBy),
    }));
    out.push({
      apiKeyId: m.apiKeyId,
      sessionId: m.sessionId,
      key: m.key,
      type: m.type,
      content: m.content,
      metadata: m.metadata,
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
      expiresAt: m.expiresAt,
      validFrom: m.validFrom,
      validTo: m.validTo,
      supersededBy: named(m.supersededBy),
      versions,
    });
  }
  const supersessions = (await db.selectFrom('supersessions').selectAll().where('undone_at', 'is', null).execute()).map((s) => ({
    apiKeyId: s.api_key_id,
    old: named(s.old_id),
    new: named(s.new_id),
    rule: s.rule,
    sentence: s.sentence,
    validTo: s.valid_to,
  }));
  const tombstones = await db
    .selectFrom('tombstones')
    .select(['api_key_id', 'session_id', 'memory_id', 'key_digest', 'deleted_at', 'deleted_by'])
    .orderBy('id')
    .execute();
  return { memories: out, supersessions, tombstones };
}

describe('the export bundle', () => {
  it('starts with a header that counts its lines and carries the checksum of the rest', async () => {
    const { file, header } = await exported(await source());
    const [first, ...rest] = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(first!)).toEqual(header);
    expect(header).toMatchObject({
      format: 'mnemo-export',
      version: 1,
      apiKeyId: null,
      counts: { memories: 3, versions: 2, tombstones: 1 },
    });
    expect(rest.filter((l) => l !== '').map((l) => JSON.parse(l).kind)).toEqual(['memory', 'memory', 'memory', 'tombstone']);
  });

  it('keeps of a deleted memory its id, session, time and author, and only a digest of its key, never its text', async () => {
    const t = await source();
    const text = readFileSync((await exported(t, 'ada')).file, 'utf8');
    const tombstone = JSON.parse(text.trim().split('\n').at(-1)!);
    expect(tombstone).toMatchObject({
      kind: 'tombstone',
      apiKeyId: 'ada',
      sessionId: null,
      keyDigest: keyDigest('secret-plan'),
      deletedBy: 'tok-1',
    });
    expect(text).not.toContain('secret-plan');
    expect(text).not.toContain('surprise party');
  });

  it('imported into an empty store gives the same memories, history, validity, supersessions and tombstones', async () => {
    const from = await source();
    const { file } = await exported(from);
    const into = await store();
    const report = await importInto(into, file);
    expect(report).toMatchObject({ read: 4, imported: 3, updated: 0, skipped: 0, versions: 2, tombstones: 1, deletedByTombstones: 0 });
    const expected = await state(from);
    expect(expected.memories.find((m) => m.key === 'home')).toMatchObject({
      supersededBy: 'home-now',
      versions: [{ content: 'Lives in Lyon, France' }, { content: 'Lives in Lyon' }],
    });
    expect(await state(into)).toEqual(expected);
  });

  it('imported twice changes nothing the second time', async () => {
    const { file } = await exported(await source());
    const into = await store();
    await importInto(into, file);
    const once = await state(into);
    const again = await importInto(into, file);
    expect(again).toMatchObject({ imported: 0, updated: 3, skipped: 0, deletedByTombstones: 0 });
    expect(await state(into)).toEqual(once);
  });

  it('is refused whole, before anything is written, when a byte after the header changed', async () => {
    const { file } = await exported(await source());
    writeFileSync(file, readFileSync(file, 'utf8').replace('Lives in Paris', 'Lives in Rome!'));
    const into = await store();
    await expect(importInto(into, file)).rejects.toThrow(/does not match its header's checksum .* nothing was imported$/);
    expect((await state(into)).memories).toEqual([]);
  });

  it('deletes what the source deleted after this store last wrote it, and keeps what this store wrote since', async () => {
    const from = await store();
    const stale = await createMemory(from.services, { apiKeyId: 'ada', key: 'old-job', content: 'Works at Acme' });
    const into = await store();
    await createMemory(into.services, { apiKeyId: 'ada', key: 'old-job', content: 'Works at Acme' });
    await deleteMemory(from.services, stale.id, all, 'admin');
    await createMemory(from.services, { apiKeyId: 'ada', key: 'kept', content: 'Likes jazz' });
    const rewritten = await createMemory(from.services, { apiKeyId: 'ada', key: 'rewritten', content: 'Likes chess' });
    await deleteMemory(from.services, rewritten.id, all, 'admin');
    await createMemory(into.services, { apiKeyId: 'ada', key: 'rewritten', content: 'Likes chess again' });
    const report = await importInto(into, (await exported(from)).file);
    expect(report).toMatchObject({ tombstones: 2, deletedByTombstones: 1 });
    const keys = (await listMemories(into.services, { apiKeyId: 'ada' }, { limit: 10, orderBy: 'key', direction: 'asc' })).items.map(
      (m) => m.key,
    );
    expect(keys).toEqual(['kept', 'rewritten']);
  });

  it('never deletes by a tombstone a memory of another API key or another session, though its key is the same', async () => {
    const from = await store();
    const into = await store();
    const gone = await createMemory(from.services, { apiKeyId: 'ada', sessionId: 'chat-1', key: 'plan', content: 'Plans a trip' });
    await createMemory(into.services, { apiKeyId: 'bob', sessionId: 'chat-1', key: 'plan', content: 'Plans a trip' });
    await createMemory(into.services, { apiKeyId: 'ada', sessionId: 'chat-2', key: 'plan', content: 'Plans a trip' });
    await deleteMemory(from.services, gone.id, all, 'admin');
    const report = await importInto(into, (await exported(from)).file);
    expect(report).toMatchObject({ tombstones: 1, deletedByTombstones: 0 });
    expect((await state(into)).memories.map((m) => [m.apiKeyId, m.sessionId])).toEqual([
      ['bob', 'chat-1'],
      ['ada', 'chat-2'],
    ]);
  });
});
