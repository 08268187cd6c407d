import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactOldMemories, summarize as summarizeInProcess } from '../../server/memory/summarization.ts';
import { countTokens } from '../../server/memory/tokenCount.ts';
import { IMPORT_MEMORIES, MEMORY_FIELDS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const FIELDS = `${MEMORY_FIELDS} archivedBy`;
const SUMMARIZE = `mutation Summarize($apiKeyId: String!, $olderThanDays: Int, $dryRun: Boolean) {
  summarize(apiKeyId: $apiKeyId, olderThanDays: $olderThanDays, dryRun: $dryRun) {
    dryRun candidateCount candidates { ${FIELDS} } tokensBefore tokensAfter tokensSaved summary { ${FIELDS} }
  }
}`;
const RESTORE = `mutation Restore($summaryId: ID!) { restoreSummary(summaryId: $summaryId) { restored summary { ${FIELDS} } } }`;
const LIST = `query List($apiKeyId: String, $includeArchived: Boolean) {
  memories(apiKeyId: $apiKeyId, includeArchived: $includeArchived, limit: 500) { totalCount items { ${FIELDS} } }
}`;
const CREATE_MEMORY = `mutation Create($input: MemoryInput!) { createMemory(input: $input) { ${FIELDS} } }`;
const GET = `query Get($id: ID!) { memory(id: $id) { ${FIELDS} } }`;
const RETRIEVAL = `items { memory { id key } content } block`;
const RETRIEVE = `query Retrieve($input: RetrieveInput!) { retrieve(input: $input) { ${RETRIEVAL} } }`;
const PREVIEW = `query Preview($input: RetrieveInput!) { retrievePreview(input: $input) { ${RETRIEVAL} } }`;

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

let app: TestApp;

/** Two fresh, independent mnemos would be slower; each test uses its own API keys instead. */
async function startWithLongRetention() {
  const started = await startTestApp();
  // Memories written 60 days ago must still be inside the retention window (default 30 days) to be candidates.
  await started.ok(UPDATE_SETTINGS, { input: { retentionDays: 365, enabled: true } });
  return started;
}

beforeAll(async () => {
  app = await startWithLongRetention();
});
afterAll(() => app.close());

interface Seed {
  content: string;
  key?: string;
  type?: string;
  days?: number;
  sessionId?: string;
}

/** Imports memories as if written `days` ago (default 60), the only way to give a memory a past write date. */
async function seed(target: TestApp, apiKeyId: string, rows: Seed[]) {
  const memories = rows.map(({ days = 60, ...r }) => ({ apiKeyId, createdAt: daysAgo(days), ...r }));
  const report = (await target.ok(IMPORT_MEMORIES, { memories })).importMemories;
  expect(report.rejected).toEqual([]);
  return listAll(target, apiKeyId, true);
}

const summarize = (apiKeyId: string, olderThanDays: number, dryRun: boolean, token?: string) =>
  app.gql(SUMMARIZE, { apiKeyId, olderThanDays, dryRun }, token);

const listAll = async (target: TestApp, apiKeyId: string, includeArchived = false): Promise<any[]> =>
  (await target.ok(LIST, { apiKeyId, includeArchived })).memories.items;

/** Every stored row of one API key, straight from SQLite, ordered by pk. */
const rowsOf = (target: TestApp, apiKeyId: string) =>
  target.database.sqlite.prepare('select * from memories where api_key_id = ? order by pk').all(apiKeyId);

/** What a memory is, without the counters that retrieval changes. */
const essence = (m: any) => ({
  id: m.id,
  apiKeyId: m.apiKeyId,
  sessionId: m.sessionId,
  type: m.type,
  key: m.key,
  content: m.content,
  metadata: m.metadata,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  expiresAt: m.expiresAt,
});
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

/** About 200 tokens: long enough that a summary line (capped at 120 tokens) is shorter than the memory. */
const longFact = (topic: string) =>
  `${topic}: ` +
  Array.from({ length: 40 }, (_, i) => `detail ${i} of the ${topic} arrangement was agreed in the planning meeting`).join('; ');

describe('summarize: dry run', () => {
  it('lists the memories last written more than N days ago and the tokens a summary would save', async () => {
    await seed(app, 'sum-dry', [
      { key: 'garden', content: longFact('garden') },
      { key: 'kitchen', content: longFact('kitchen') },
      { key: 'garage', content: longFact('garage') },
      { key: 'recent', content: 'Bought a new lamp last week', days: 2 },
    ]);
    const { summarize: s } = (await summarize('sum-dry', 30, true)).data!;
    expect(s.dryRun).toBe(true);
    expect(s.candidateCount).toBe(3);
    expect(s.candidates.map((m: any) => m.key).sort()).toEqual(['garage', 'garden', 'kitchen']);
    expect(s.tokensBefore).toBe(s.candidates.reduce((n: number, m: any) => n + m.tokens, 0));
    expect(s.tokensAfter).toBeGreaterThan(0);
    expect(s.tokensSaved).toBe(s.tokensBefore - s.tokensAfter);
    expect(s.tokensSaved).toBeGreaterThan(0);
    expect(s.summary).toBeNull();
  });

  it('changes nothing: every row and the list stay exactly as they were', async () => {
    await seed(app, 'sum-dry-2', [{ content: 'Likes tea' }, { content: 'Has a dog named Rex' }, { content: 'Lives in Lyon' }]);
    const rowsBefore = rowsOf(app, 'sum-dry-2');
    const listBefore = await listAll(app, 'sum-dry-2');
    const total = app.database.sqlite.prepare('select count(*) as n from memories').get();
    expect((await summarize('sum-dry-2', 30, true)).data!.summarize.candidateCount).toBe(3);
    expect(rowsOf(app, 'sum-dry-2')).toEqual(rowsBefore);
    expect(await listAll(app, 'sum-dry-2')).toEqual(listBefore);
    expect(app.database.sqlite.prepare('select count(*) as n from memories').get()).toEqual(total);
  });

  it('is a dry run unless dryRun: false is given', async () => {
    await seed(app, 'sum-default', [{ content: 'Plays chess' }, { content: 'Plays go' }]);
    const res = await app.ok(`mutation { summarize(apiKeyId: "sum-default") { dryRun candidateCount summary { id } } }`);
    expect(res.summarize).toEqual({ dryRun: true, candidateCount: 2, summary: null });
  });
});

describe('summarize: a real run', () => {
  it('writes exactly one SEMANTIC summary memory for the key, keyed "summary:", holding the facts', async () => {
    const originals = await seed(app, 'sum-real', [
      { content: 'Uses the Helix editor' },
      { content: 'Deploys on Fridays' },
      { content: 'Allergic to peanuts' },
    ]);
    const { summarize: s } = (await summarize('sum-real', 30, false)).data!;
    expect(s.dryRun).toBe(false);
    expect(s.candidateCount).toBe(3);
    expect(s.summary).toMatchObject({ apiKeyId: 'sum-real', sessionId: null, type: 'SEMANTIC', status: 'ACTIVE', archivedBy: null });
    expect(s.summary.key).toMatch(/^summary:/);
    expect(s.summary.tokens).toBe(countTokens(s.summary.content));
    expect(s.summary.tokens).toBe(s.tokensAfter);
    for (const m of originals) expect(s.summary.content).toContain(m.content);
    const all = await listAll(app, 'sum-real', true);
    expect(all.filter((m) => m.key.startsWith('summary:')).map((m) => m.id)).toEqual([s.summary.id]);
    expect(all).toHaveLength(4);
  });

  it('archives the originals: hidden from memories by default, listed as ARCHIVED with includeArchived', async () => {
    const originals = await seed(app, 'sum-archive', [
      { content: 'Runs marathons' },
      { content: 'Drinks oat milk' },
      { content: 'Recently moved house', days: 1 },
    ]);
    const { summary } = (await summarize('sum-archive', 30, false)).data!.summarize;
    const old = originals.filter((m) => m.content !== 'Recently moved house');

    const visible = await listAll(app, 'sum-archive');
    expect(visible.map((m) => m.content).sort()).toEqual(['Recently moved house', summary.content].sort());

    const withArchived = await listAll(app, 'sum-archive', true);
    for (const m of old) {
      const archived = withArchived.find((x) => x.id === m.id);
      expect(archived).toMatchObject({ status: 'ARCHIVED', archivedBy: summary.id, content: m.content, updatedAt: m.updatedAt });
    }
    expect((await app.ok(GET, { id: old[0]!.id })).memory).toMatchObject({ status: 'ARCHIVED', archivedBy: summary.id });
  });

  it('never returns an archived original from retrieve or retrievePreview', async () => {
    const originals = await seed(app, 'sum-retrieve', [{ content: 'Favourite colour is teal' }, { content: 'Favourite band is Low' }]);
    const input = { apiKeyId: 'sum-retrieve', query: 'favourite colour band', strategy: 'HYBRID' };
    const before = (await app.ok(PREVIEW, { input })).retrievePreview.items.map((i: any) => i.memory.id);
    expect(before.sort()).toEqual(originals.map((m) => m.id).sort());

    const { summary } = (await summarize('sum-retrieve', 30, false)).data!.summarize;
    const ids = new Set(originals.map((m) => m.id));
    for (const query of [RETRIEVE, PREVIEW]) {
      for (const strategy of ['HYBRID', 'EXACT']) {
        const data = await app.ok(query, { input: { ...input, strategy } });
        const items = (data.retrieve ?? data.retrievePreview).items;
        expect(items.filter((i: any) => ids.has(i.memory.id))).toEqual([]);
        // The facts still reach the model, through the summary.
        expect(items.map((i: any) => i.memory.id)).toEqual([summary.id]);
      }
    }
  });

  it('leaves other API keys untouched, even when their memories are just as old', async () => {
    await seed(app, 'sum-tenant-a', [{ content: 'Tenant A likes jazz' }, { content: 'Tenant A has two cats' }]);
    await seed(app, 'sum-tenant-b', [{ content: 'Tenant B likes metal' }, { content: 'Tenant B has a parrot' }]);
    const rowsB = rowsOf(app, 'sum-tenant-b');
    const { summary, candidates } = (await summarize('sum-tenant-a', 30, false)).data!.summarize;
    expect(candidates.every((m: any) => m.apiKeyId === 'sum-tenant-a')).toBe(true);
    expect(summary.content).not.toContain('Tenant B');
    expect(rowsOf(app, 'sum-tenant-b')).toEqual(rowsB);
    expect((await listAll(app, 'sum-tenant-b')).every((m) => m.status === 'ACTIVE' && !m.key.startsWith('summary:'))).toBe(true);
  });

  it('does not summarize a summary again: a second run finds nothing to compact', async () => {
    await seed(app, 'sum-twice', [{ content: 'Speaks Danish' }, { content: 'Speaks Welsh' }]);
    expect((await summarize('sum-twice', 30, false)).data!.summarize.summary).not.toBeNull();
    // The summary itself is new, so olderThanDays 0 makes everything "old" that could be.
    const again = (await summarize('sum-twice', 0, false)).data!.summarize;
    expect(again).toMatchObject({ candidateCount: 0, summary: null });
  });

  it('writes one summary when two runs for the same key arrive at once', async () => {
    await seed(app, 'sum-race', [{ content: 'Owns a canoe' }, { content: 'Owns a kayak' }, { content: 'Owns a raft' }]);
    const results = await Promise.all([summarize('sum-race', 30, false), summarize('sum-race', 30, false)]);
    const written = results.map((r) => r.data?.summarize?.summary).filter((s) => s);
    const stored = (await listAll(app, 'sum-race', true)).filter((m) => m.key.startsWith('summary:'));
    expect(stored).toHaveLength(1);
    expect(written.map((s: any) => s.id)).toEqual([stored[0].id]);
    const archived = (await listAll(app, 'sum-race', true)).filter((m) => m.status === 'ARCHIVED');
    expect(archived.map((m) => m.archivedBy)).toEqual([stored[0].id, stored[0].id, stored[0].id]);
  });

  it('brings a memory back when it is written again after being archived', async () => {
    const old = (
      await seed(app, 'sum-rewrite', [
        { key: 'editor', content: 'Uses vim' },
        { key: 'shell', content: 'Uses bash' },
      ])
    ).find((m) => m.key === 'editor');
    expect((await summarize('sum-rewrite', 30, false)).data!.summarize.summary).not.toBeNull();
    // The user states a newer fact under the same key: it is fresh, not part of any summary, so it must be retrievable.
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'sum-rewrite', key: 'editor', content: 'Uses Zed now' } });
    expect(createMemory).toMatchObject({ id: old.id, status: 'ACTIVE', archivedBy: null, content: 'Uses Zed now' });
    const items = (await app.ok(RETRIEVE, { input: { apiKeyId: 'sum-rewrite', query: 'Zed' } })).retrieve.items;
    expect(items.map((i: any) => i.content)).toContain('Uses Zed now');
  });

  it('keeps a memory archived when the same fact is merely restated: the summary already carries it', async () => {
    await seed(app, 'sum-restate', [
      { key: 'editor', content: 'Uses vim' },
      { key: 'shell', content: 'Uses bash' },
    ]);
    const { summary } = (await summarize('sum-restate', 30, false)).data!.summarize;
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'sum-restate', key: 'shell', content: 'Uses bash' } });
    expect(createMemory).toMatchObject({ status: 'ARCHIVED', archivedBy: summary.id });
  });
});

describe('restoreSummary', () => {
  it('brings every original back as ACTIVE and removes the summary: nothing is lost', async () => {
    await seed(app, 'sum-restore', [
      { key: 'a', content: 'Prefers window seats', sessionId: 's1' },
      { key: 'b', content: 'Flies with KLM', type: 'EPISODIC' },
      { key: 'c', content: 'Packs light', type: 'PROCEDURAL' },
      { key: 'd', content: 'Booked Lisbon yesterday', days: 1 },
    ]);
    const before = (await listAll(app, 'sum-restore', true)).map(essence).sort(byId);
    const { summary } = (await summarize('sum-restore', 30, false)).data!.summarize;

    const { restoreSummary } = await app.ok(RESTORE, { summaryId: summary.id });
    expect(restoreSummary.restored).toBe(3);
    expect(restoreSummary.summary.id).toBe(summary.id);

    const after = await listAll(app, 'sum-restore', true);
    expect(after.map(essence).sort(byId)).toEqual(before);
    expect(after.every((m) => m.status === 'ACTIVE' && m.archivedBy === null)).toBe(true);
    expect((await app.ok(GET, { id: summary.id })).memory).toBeNull();
  });

  it('makes the originals retrievable again', async () => {
    const originals = await seed(app, 'sum-restore-2', [
      { content: 'Favourite pasta is orecchiette' },
      { content: 'Favourite cheese is comte' },
    ]);
    const { summary } = (await summarize('sum-restore-2', 30, false)).data!.summarize;
    await app.ok(RESTORE, { summaryId: summary.id });
    const items = (await app.ok(RETRIEVE, { input: { apiKeyId: 'sum-restore-2', query: 'favourite pasta cheese' } })).retrieve.items;
    expect(items.map((i: any) => i.memory.id).sort()).toEqual(originals.map((m) => m.id).sort());
  });

  it('answers NOT_FOUND for a summary that was already restored, and for an ordinary memory', async () => {
    const [plain] = await seed(app, 'sum-restore-3', [{ content: 'Reads sci-fi' }, { content: 'Reads poetry' }]);
    const { summary } = (await summarize('sum-restore-3', 30, false)).data!.summarize;
    await app.ok(RESTORE, { summaryId: summary.id });
    expect(onlyError(await app.gql(RESTORE, { summaryId: summary.id })).extensions?.code).toBe('NOT_FOUND');
    expect(onlyError(await app.gql(RESTORE, { summaryId: plain.id })).extensions?.code).toBe('NOT_FOUND');
    expect((await app.ok(GET, { id: plain.id })).memory).toMatchObject({ status: 'ACTIVE' });
  });
});

describe('which memories are candidates', () => {
  it('leaves enforced memories and recently written ones out', async () => {
    await seed(app, 'sum-cand', [
      { key: 'old-1', content: 'Works at a bakery' },
      { key: 'old-2', content: 'Starts work at 5am' },
      { key: 'rule', content: 'Always answer in French', type: 'ENFORCED' },
      { key: 'fresh', content: 'Started a sourdough course', days: 3 },
    ]);
    const dry = (await summarize('sum-cand', 30, true)).data!.summarize;
    expect(dry.candidates.map((m: any) => m.key).sort()).toEqual(['old-1', 'old-2']);

    const { summary } = (await summarize('sum-cand', 30, false)).data!.summarize;
    expect(summary.content).not.toContain('French');
    expect(summary.content).not.toContain('sourdough');
    const byKey = Object.fromEntries((await listAll(app, 'sum-cand', true)).map((m) => [m.key, m]));
    expect(byKey.rule).toMatchObject({ status: 'ACTIVE', archivedBy: null });
    expect(byKey.fresh).toMatchObject({ status: 'ACTIVE', archivedBy: null });
    expect(byKey['old-1']).toMatchObject({ status: 'ARCHIVED' });
  });

  it('counts age from the last write: an old memory rewritten today is not a candidate', async () => {
    await seed(app, 'sum-age', [
      { key: 'x', content: 'Old x' },
      { key: 'y', content: 'Old y' },
      { key: 'z', content: 'Old z' },
    ]);
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'sum-age', key: 'z', content: 'New z' } });
    const dry = (await summarize('sum-age', 30, true)).data!.summarize;
    expect(dry.candidates.map((m: any) => m.key).sort()).toEqual(['x', 'y']);
  });

  it('writes no summary when fewer than two memories qualify', async () => {
    const [old] = await seed(app, 'sum-few', [
      { content: 'Only old fact' },
      { content: 'Fresh fact one', days: 1 },
      { content: 'Fresh fact two', days: 0 },
    ]);
    const rowsBefore = rowsOf(app, 'sum-few');
    const s = (await summarize('sum-few', 30, false)).data!.summarize;
    expect(s).toMatchObject({ dryRun: false, candidateCount: 1, tokensSaved: 0, summary: null });
    expect(rowsOf(app, 'sum-few')).toEqual(rowsBefore);
    expect((await app.ok(GET, { id: old!.id })).memory.status).toBe('ACTIVE');

    const none = (await summarize('sum-nothing-here', 30, false)).data!.summarize;
    expect(none).toMatchObject({ candidateCount: 0, tokensBefore: 0, tokensSaved: 0, summary: null });
  });
});

describe('who may summarize', () => {
  it('refuses a token bound to key "a" that names key "b" (FORBIDDEN), and changes nothing of b', async () => {
    await seed(app, 'sum-auth-b', [{ content: 'B fact one' }, { content: 'B fact two' }]);
    const tokenA = await app.mintToken({ apiKeyId: 'sum-auth-a' });
    const rowsB = rowsOf(app, 'sum-auth-b');
    for (const dryRun of [true, false]) {
      const res = await summarize('sum-auth-b', 30, dryRun, tokenA);
      expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
      expect(res.data?.summarize ?? null).toBeNull();
    }
    expect(rowsOf(app, 'sum-auth-b')).toEqual(rowsB);
  });

  it('lets a bound token summarize its own key', async () => {
    await seed(app, 'sum-auth-own', [{ content: 'Own fact one' }, { content: 'Own fact two' }]);
    const token = await app.mintToken({ apiKeyId: 'sum-auth-own' });
    const res = await summarize('sum-auth-own', 30, false, token);
    expect(res.errors).toBeUndefined();
    expect(res.data!.summarize.summary.apiKeyId).toBe('sum-auth-own');
  });

  it('answers NOT_FOUND when a token bound to "a" restores a summary of "b", which stays in place', async () => {
    await seed(app, 'sum-auth-b2', [{ content: 'B2 fact one' }, { content: 'B2 fact two' }]);
    const { summary } = (await summarize('sum-auth-b2', 30, false)).data!.summarize;
    const tokenA = await app.mintToken({ apiKeyId: 'sum-auth-a' });
    expect(onlyError(await app.gql(RESTORE, { summaryId: summary.id }, tokenA)).extensions?.code).toBe('NOT_FOUND');
    expect((await app.ok(GET, { id: summary.id })).memory).toMatchObject({ id: summary.id, status: 'ACTIVE' });
    expect((await listAll(app, 'sum-auth-b2', true)).filter((m) => m.status === 'ARCHIVED')).toHaveLength(2);
  });

  it('rejects olderThanDays -1 as BAD_USER_INPUT', async () => {
    const err = onlyError(await summarize('sum-bad', -1, true));
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(err.message).toContain('olderThanDays');
  });
});

describe('compactOldMemories (the autoSummarize entry point)', () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await startWithLongRetention();
  });
  afterAll(() => own.close());

  it("compacts each API key separately: one summary per key, holding only that key's facts", async () => {
    await seed(own, 'auto-1', [
      { content: 'Auto one likes rowing' },
      { content: 'Auto one likes cycling' },
      { content: 'Auto one likes hiking' },
    ]);
    await seed(own, 'auto-2', [{ content: 'Auto two likes painting' }, { content: 'Auto two likes pottery' }]);
    await seed(own, 'auto-3', [{ content: 'Auto three has one old fact' }, { content: 'Auto three is new here', days: 1 }]);

    const results = await compactOldMemories(own.services.memory, { olderThanDays: 30, minCandidates: 2, maxKeys: 10 });
    expect(
      results.map((r) => ({ apiKeyId: r.apiKeyId, archived: r.archived })).sort((a, b) => a.apiKeyId.localeCompare(b.apiKeyId)),
    ).toEqual([
      { apiKeyId: 'auto-1', archived: 3 },
      { apiKeyId: 'auto-2', archived: 2 },
    ]);

    for (const [key, mine, theirs] of [
      ['auto-1', 'Auto one', 'Auto two'],
      ['auto-2', 'Auto two', 'Auto one'],
    ] as const) {
      const all = await listAll(own, key, true);
      const summaries = all.filter((m) => m.key.startsWith('summary:'));
      expect(summaries).toHaveLength(1);
      expect(summaries[0].apiKeyId).toBe(key);
      expect(summaries[0].content).toContain(mine);
      expect(summaries[0].content).not.toContain(theirs);
      expect(all.filter((m) => m.status === 'ARCHIVED').every((m) => m.archivedBy === summaries[0].id)).toBe(true);
    }
    expect((await listAll(own, 'auto-3', true)).every((m) => m.status === 'ACTIVE' && !m.key.startsWith('summary:'))).toBe(true);
  });

  it('compacts at most maxKeys keys per run; the next run takes the rest', async () => {
    for (const key of ['cap-1', 'cap-2', 'cap-3']) await seed(own, key, [{ content: `${key} first` }, { content: `${key} second` }]);
    const first = await compactOldMemories(own.services.memory, { olderThanDays: 30, minCandidates: 2, maxKeys: 2 });
    expect(first).toHaveLength(2);
    const summarized = (key: string) => listAll(own, key).then((items) => items.some((m) => m.key.startsWith('summary:')));
    const done = await Promise.all(['cap-1', 'cap-2', 'cap-3'].map(summarized));
    expect(done.filter(Boolean)).toHaveLength(2);

    const second = await compactOldMemories(own.services.memory, { olderThanDays: 30, minCandidates: 2, maxKeys: 2 });
    expect(second).toHaveLength(1);
    expect(new Set([...first, ...second].map((r) => r.apiKeyId))).toEqual(new Set(['cap-1', 'cap-2', 'cap-3']));
    expect(await compactOldMemories(own.services.memory, { olderThanDays: 30, minCandidates: 2, maxKeys: 2 })).toEqual([]);
  });

  it('writes one summary when an autoSummarize run and a manual summarize of the same key overlap', async () => {
    await seed(own, 'overlap', [{ content: 'Overlap one' }, { content: 'Overlap two' }, { content: 'Overlap three' }]);
    const [auto, manual] = await Promise.all([
      compactOldMemories(own.services.memory, { olderThanDays: 30, minCandidates: 2, maxKeys: 10 }),
      summarizeInProcess(own.services.memory, { apiKeyId: 'overlap', olderThanDays: 30, dryRun: false }),
    ]);
    const all = await listAll(own, 'overlap', true);
    const summaries = all.filter((m) => m.key.startsWith('summary:'));
    expect(summaries).toHaveLength(1);
    // Exactly one of the two runs reports the archiving, and every original points at the one summary.
    const archivedByAuto = auto.find((r) => r.apiKeyId === 'overlap')?.archived ?? 0;
    expect(archivedByAuto + (manual.summary ? manual.candidates.length : 0)).toBe(3);
    expect(all.filter((m) => m.status === 'ARCHIVED').map((m) => m.archivedBy)).toEqual(Array(3).fill(summaries[0].id));
    // So restoring it brings everything back and leaves no second summary behind.
    await own.ok(RESTORE, { summaryId: summaries[0].id });
    expect((await listAll(own, 'overlap', true)).map((m) => m.content).sort()).toEqual(['Overlap one', 'Overlap three', 'Overlap two']);
  });
});

describe('a summary that cannot hold every old memory', () => {
  it('archives only the memories it carries; the others stay active for a later run', async () => {
    const apiKeyId = 'sum-overflow';
    // 40 distinct long facts: more than the summary's token cap can carry.
    await seed(
      app,
      apiKeyId,
      Array.from({ length: 40 }, (_, i) => ({ content: `Fact ${i}: ${'a rather long description of a project detail '.repeat(12)}` })),
    );
    const data = (await summarize(apiKeyId, 30, false)).data.summarize;
    expect(data.candidateCount).toBeGreaterThan(1);
    expect(data.candidateCount).toBeLessThan(40);
    const active = await listAll(app, apiKeyId);
    // The active ones are the summary plus every fact it did not carry.
    expect(active).toHaveLength(1 + 40 - data.candidateCount);
    for (const c of data.candidates) expect(data.summary.content).toContain(c.content.slice(0, 20));
  });
});
