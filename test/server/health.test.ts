import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

const HEALTH = `{ memoryHealth { ok latencyMs error checkedAt checks { name ok latencyMs } } }`;
const RETRIEVE = `query Retrieve($input: RetrieveInput!) { retrieve(input: $input) { items { memory { id } } } }`;

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

/** Everything a probe could leave behind, read straight from SQLite once the access counts are written. */
async function snapshot() {
  await app.services.access.flush();
  const sqlite = app.database.sqlite;
  const all = (sql: string) => sqlite.prepare(sql).all();
  const one = (sql: string) => sqlite.prepare(sql).get();
  return {
    memories: one('select count(*) as n from memories'),
    maxPk: one('select max(pk) as pk from memories'),
    ftsData: one('select count(*) as n from memories_fts_data'),
    ftsIdx: one('select count(*) as n from memories_fts_idx'),
    ftsDocsize: one('select count(*) as n from memories_fts_docsize'),
    // A leftover index entry of the probe would still match its marker word.
    probeInIndex: one(`select count(*) as n from memories_fts where memories_fts match 'healthprobe*'`),
    retrievalStats: all('select * from retrieval_stats order by api_key_id'),
    sequence: all('select * from sqlite_sequence order by name'),
    access: all('select id, access_count, last_accessed_at, updated_at from memories order by pk'),
  };
}

describe('memoryHealth', () => {
  it('reports ok with the create, read, search, delete, commit and disk checks and their latencies', async () => {
    const { memoryHealth: h } = await app.ok(HEALTH);
    expect(h.ok).toBe(true);
    expect(h.error).toBeNull();
    expect(h.checks.map((c: any) => c.name)).toEqual(['CREATE', 'READ', 'SEARCH', 'DELETE', 'COMMIT', 'DISK']);
    for (const c of h.checks) {
      expect(c.ok).toBe(true);
      expect(c.latencyMs).toBeGreaterThanOrEqual(0);
      expect(c.latencyMs).toBeLessThanOrEqual(h.latencyMs);
    }
    expect(h.latencyMs).toBeGreaterThan(0);
    expect(Math.abs(Date.parse(h.checkedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('leaves no trace: rows, index, counters, autoincrement sequence and max pk are unchanged after 20 probes', async () => {
    const before = await snapshot();
    expect(before.probeInIndex).toEqual({ n: 0 });
    // The comparison means something only if there is something to compare.
    expect(before.sequence).toContainEqual({ name: 'memories', seq: (before.maxPk as { pk: number }).pk });
    expect(before.retrievalStats).toHaveLength(2);
    expect((before.ftsData as { n: number }).n).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) expect((await app.ok(HEALTH)).memoryHealth.ok).toBe(true);
    expect(await snapshot()).toEqual(before);
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
    // And the next real memory gets the pk it would have had without the probes.
    const { maxPk } = await snapshot();
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'health-a', content: 'Written after the probes' }] });
    const row = app.database.sqlite.prepare(`select pk from memories where content = 'Written after the probes'`).get() as { pk: number };
    expect(row.pk).toBe((maxPk as { pk: number }).pk + 1);
  });
});

describe('memoryHealth on a fresh server', () => {
  it('is healthy with no memory stored yet', async () => {
    const fresh = await startTestApp();
    try {
      const { memoryHealth: h } = await fresh.ok(HEALTH);
      expect(h).toMatchObject({ ok: true, error: null });
      expect(h.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual(
        ['CREATE', 'READ', 'SEARCH', 'DELETE', 'COMMIT', 'DISK'].map((name) => [name, true]),
      );
      expect(fresh.database.sqlite.prepare('select count(*) as n from memories').get()).toEqual({ n: 0 });
    } finally {
      await fresh.close();
    }
  });
});
