import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineTokens } from '../../server/memory/blockTokens.ts';
import { compactOldMemories, summarize as summarizeInProcess } from '../../server/memory/summary.service.ts';
import { countTokens } from '../../server/tokenCount.ts';
import {
  SummarizeCreateMemoryDocument as CREATE_MEMORY,
  SummarizeGetMemoryDocument as GET,
  SummarizeListDocument as LIST,
  SummarizeRunDocument as SUMMARIZE,
  SummarizeByDefaultDocument as SUMMARIZE_BY_DEFAULT,
  SummarizeDefaultCutoffDocument as SUMMARIZE_DEFAULT_CUTOFF,
  type SummarizeMemoryFragment,
} from '../generated/graphql.ts';
import {
  CLEAR_MEMORIES,
  DELETE_MEMORY,
  IMPORT_MEMORIES,
  type MemoryInput,
  RESTORE_SUMMARY as RESTORE,
  RETRIEVE,
  RETRIEVE_PREVIEW,
  type RetrieveInput,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

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
  type?: MemoryInput['type'];
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
/** A real run that must write summaries; returns its result. */
const compact = async (apiKeyId: string, olderThanDays = 30) => {
  const s = (await summarize(apiKeyId, olderThanDays, false)).data!.summarize;
  expect(s.refusedReason).toBeNull();
  return s;
};
/** The one summary of a real run. */
const compactOne = async (apiKeyId: string) => {
  const s = await compact(apiKeyId);
  expect(s.summaries).toHaveLength(1);
  return { ...s, summary: s.summaries[0]! };
};

/**
 * Ten short facts: enough that their summary costs fewer tokens than their own lines in the block (a memory's line
 * repeats its type label; a summary pays it once per type). Two or three short facts would be refused.
 */
const facts = (label: string, n = 10, extra: Partial<Seed> = {}): Seed[] =>
  Array.from({ length: n }, (_, i) => ({ content: `${label} likes item ${i}`, ...extra }));
const summaries = <M extends { key: string }>(memories: M[]) => memories.filter((m) => m.key.startsWith('summary:'));

const listAll = async (target: TestApp, apiKeyId: string, includeArchived = false) =>
  (await target.ok(LIST, { apiKeyId, includeArchived })).memories.items;

/** Every stored row of one API key, straight from the store, ordered by pk. */
const rowsOf = (target: TestApp, apiKeyId: string) =>
  target.database.db.selectFrom('memories').selectAll().where('api_key_id', '=', apiKeyId).orderBy('pk').execute();
const memoryCount = async () =>
  (
    await app.database.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** What a memory is, without the counters that retrieval changes. */
const essence = (m: SummarizeMemoryFragment) => ({
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

const retrieve = async (input: RetrieveInput) => (await app.ok(RETRIEVE, { input })).retrieve;
const preview = async (input: RetrieveInput) => (await app.ok(RETRIEVE_PREVIEW, { input })).retrievePreview;

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
    expect(s).toMatchObject({ dryRun: true, olderThanDays: 30, candidateCount: 3, summaries: [], refusedReason: null });
    expect(s.candidates.map((m) => m.key).sort()).toEqual(['garage', 'garden', 'kitchen']);
    expect(s.tokensAfter).toBeGreaterThan(0);
    expect(s.tokensSaved).toBe(s.tokensBefore - s.tokensAfter);
    expect(s.tokensSaved).toBeGreaterThan(0);
  });

  it("weighs what is injected: the candidates' lines in the memory block against the summary's line", async () => {
    await seed(app, 'sum-dry-cost', facts('Cost'));
    const s = (await summarize('sum-dry-cost', 30, true)).data!.summarize;
    expect(s.tokensBefore).toBe(s.candidates.reduce((n, m) => n + lineTokens({ type: 'factual', content: m.content }), 0));
    expect(s.groups).toEqual([expect.objectContaining({ sessionId: null, tokensBefore: s.tokensBefore, tokensAfter: s.tokensAfter })]);
    expect(s.groups[0]!.summaryTokens).toBe(s.tokensAfter);
  });

  it('changes nothing: every row and the list stay exactly as they were', async () => {
    await seed(app, 'sum-dry-2', facts('Dry'));
    const rowsBefore = await rowsOf(app, 'sum-dry-2');
    const listBefore = await listAll(app, 'sum-dry-2');
    const total = await memoryCount();
    expect((await summarize('sum-dry-2', 30, true)).data!.summarize.candidateCount).toBe(10);
    expect(await rowsOf(app, 'sum-dry-2')).toEqual(rowsBefore);
    expect(await listAll(app, 'sum-dry-2')).toEqual(listBefore);
    expect(await memoryCount()).toBe(total);
  });

  it('is a dry run unless dryRun: false is given', async () => {
    await seed(app, 'sum-default', facts('Default'));
    const res = await app.ok(SUMMARIZE_BY_DEFAULT, { apiKeyId: 'sum-default', olderThanDays: 30 });
    expect(res.summarize).toEqual({ dryRun: true, candidateCount: 10, summaries: [] });
  });
});

describe('summarize: the cut-off by default', () => {
  it('is half the retention window, as the auto pass uses, so default settings find something', async () => {
    // Default settings: a 30-day retention window. A 30-day cut-off selected nothing by construction.
    const fresh = await startTestApp();
    try {
      await seed(fresh, 'sum-cutoff', facts('Cutoff', 10, { days: 20 }));
      const s = (await fresh.ok(SUMMARIZE_DEFAULT_CUTOFF, { apiKeyId: 'sum-cutoff' })).summarize;
      expect(s).toEqual({ olderThanDays: 15, candidateCount: 10, refusedReason: null });
    } finally {
      await fresh.close();
    }
  });
});

describe('summarize: a real run', () => {
  it('writes exactly one SEMANTIC summary memory for the key, keyed "summary:", holding the facts', async () => {
    const originals = await seed(app, 'sum-real', facts('Real'));
    const { summary, candidateCount, tokensAfter } = await compactOne('sum-real');
    expect(candidateCount).toBe(10);
    expect(summary).toMatchObject({ apiKeyId: 'sum-real', sessionId: null, type: 'SEMANTIC', status: 'ACTIVE', archivedBy: null });
    expect(summary.key).toMatch(/^summary:/);
    expect(summary.tokens).toBe(countTokens(summary.content));
    expect(tokensAfter).toBe(lineTokens({ type: 'semantic', content: summary.content }));
    for (const m of originals) expect(summary.content).toContain(m.content);
    const all = await listAll(app, 'sum-real', true);
    expect(summaries(all).map((m) => m.id)).toEqual([summary.id]);
    expect(all).toHaveLength(11);
  });

  it('archives the originals: hidden from memories by default, listed as ARCHIVED with includeArchived', async () => {
    const originals = await seed(app, 'sum-archive', [...facts('Archive'), { content: 'Recently moved house', days: 1 }]);
    const { summary } = await compactOne('sum-archive');
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
    const originals = await seed(app, 'sum-retrieve', facts('Favourite colour'));
    const input: RetrieveInput = { apiKeyId: 'sum-retrieve', query: 'favourite colour item', strategy: 'HYBRID' };
    const before = (await preview(input)).items.map((i) => i.memory.id);
    expect(before.sort()).toEqual(originals.map((m) => m.id).sort());

    const { summary } = await compactOne('sum-retrieve');
    const ids = new Set(originals.map((m) => m.id));
    for (const retrieval of [retrieve, preview]) {
      for (const strategy of ['HYBRID', 'EXACT'] as const) {
        const { items } = await retrieval({ ...input, strategy });
        expect(items.filter((i) => ids.has(i.memory.id))).toEqual([]);
        // The facts still reach the model, through the summary.
        expect(items.map((i) => i.memory.id)).toEqual([summary.id]);
      }
    }
  });

  it('leaves other API keys untouched, even when their memories are just as old', async () => {
    await seed(app, 'sum-tenant-a', facts('Tenant A'));
    await seed(app, 'sum-tenant-b', facts('Tenant B'));
    const rowsB = await rowsOf(app, 'sum-tenant-b');
    const { summary, candidates } = await compactOne('sum-tenant-a');
    expect(candidates.every((m) => m.apiKeyId === 'sum-tenant-a')).toBe(true);
    expect(summary.content).not.toContain('Tenant B');
    expect(await rowsOf(app, 'sum-tenant-b')).toEqual(rowsB);
    expect((await listAll(app, 'sum-tenant-b')).every((m) => m.status === 'ACTIVE' && !m.key.startsWith('summary:'))).toBe(true);
  });

  it('does not summarize a summary again: a second run finds nothing to compact', async () => {
    await seed(app, 'sum-twice', facts('Twice'));
    await compactOne('sum-twice');
    // The summary itself is new, so olderThanDays 0 makes everything "old" that could be.
    const again = (await summarize('sum-twice', 0, false)).data!.summarize;
    expect(again).toMatchObject({
      candidateCount: 0,
      summaries: [],
      refusedReason: 'no memory of this key was last written more than 0 days ago',
    });
  });

  it('writes one summary when two runs for the same key arrive at once', async () => {
    await seed(app, 'sum-race', facts('Race'));
    const results = await Promise.all([summarize('sum-race', 30, false), summarize('sum-race', 30, false)]);
    const written = results.flatMap((r) => r.data?.summarize?.summaries ?? []);
    const stored = summaries(await listAll(app, 'sum-race', true));
    expect(stored).toHaveLength(1);
    expect(written.map((s) => s.id)).toEqual([stored[0]!.id]);
    const archived = (await listAll(app, 'sum-race', true)).filter((m) => m.status === 'ARCHIVED');
    expect(archived.map((m) => m.archivedBy)).toEqual(Array(10).fill(stored[0]!.id));
  });

  it('brings a memory back when it is written again after being archived', async () => {
    const old = (await seed(app, 'sum-rewrite', [{ key: 'editor', content: 'Uses vim' }, ...facts('Rewrite')])).find(
      (m) => m.key === 'editor',
    )!;
    await compactOne('sum-rewrite');
    // The user states a newer fact under the same key: it is fresh, not part of any summary, so it must be retrievable.
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'sum-rewrite', key: 'editor', content: 'Uses Zed now' } });
    expect(createMemory).toMatchObject({ id: old.id, status: 'ACTIVE', archivedBy: null, content: 'Uses Zed now' });
    const items = (await app.ok(RETRIEVE, { input: { apiKeyId: 'sum-rewrite', query: 'Zed' } })).retrieve.items;
    expect(items.map((i) => i.content)).toContain('Uses Zed now');
    // And the summary no longer says the old fact.
    expect(summaries(await listAll(app, 'sum-rewrite'))[0]!.content).not.toContain('Uses vim');
  });

  it('keeps a memory archived when the same fact is merely restated: the summary already carries it', async () => {
    await seed(app, 'sum-restate', [{ key: 'shell', content: 'Uses bash' }, ...facts('Restate')]);
    const { summary } = await compactOne('sum-restate');
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'sum-restate', key: 'shell', content: 'Uses bash' } });
    expect(createMemory).toMatchObject({ status: 'ARCHIVED', archivedBy: summary.id });
  });
});

describe('summaries keep session scope', () => {
  it("compacts each session's memories into that session's summary, and key-wide memories into a key-wide one", async () => {
    await seed(app, 'sum-sessions', [
      ...facts('Alpha', 10, { sessionId: 's1' }),
      ...facts('Beta', 10, { sessionId: 's2' }),
      ...facts('Gamma', 10),
    ]);
    const s = await compact('sum-sessions');
    expect(s.summaries.map((m) => m.sessionId).sort()).toEqual([null, 's1', 's2'].sort());
    expect(s.groups.map((g) => g.sessionId).sort()).toEqual([null, 's1', 's2'].sort());
    const bySession = Object.fromEntries(s.summaries.map((m) => [m.sessionId ?? 'none', m.content]));
    expect(bySession.s1).toContain('Alpha');
    expect(bySession.s1).not.toMatch(/Beta|Gamma/);
    expect(bySession.s2).toContain('Beta');
    expect(bySession.s2).not.toMatch(/Alpha|Gamma/);
    expect(bySession.none).toContain('Gamma');
    expect(bySession.none).not.toMatch(/Alpha|Beta/);
  });

  it("never lets a retrieval for one session see another session's text through a summary", async () => {
    await seed(app, 'sum-leak', [...facts('Secretive', 10, { sessionId: 's1' }), ...facts('Open', 10)]);
    await compact('sum-leak');
    for (const strategy of ['HYBRID', 'EXACT'] as const) {
      const input = { apiKeyId: 'sum-leak', sessionId: 's2', query: 'secretive likes item', strategy };
      for (const retrieval of [retrieve, preview]) {
        const r = await retrieval(input);
        expect(r.block).not.toContain('Secretive');
        expect(r.items.length).toBeGreaterThan(0);
      }
      // Session s1 still gets its own facts, through its summary.
      const own = await retrieve({ ...input, sessionId: 's1' });
      expect(own.block).toContain('Secretive');
    }
  });
});

describe('a summary never costs more than it saves', () => {
  it('says so in the dry run when the summary would not be smaller, and the real run archives nothing', async () => {
    await seed(app, 'sum-costly', [{ content: 'Speaks Danish' }, { content: 'Speaks Welsh' }, { content: 'Speaks Basque' }]);
    const rowsBefore = await rowsOf(app, 'sum-costly');
    for (const dryRun of [true, false]) {
      const s = (await summarize('sum-costly', 30, dryRun)).data!.summarize;
      const group = s.groups[0]!;
      expect(group.summaryTokens).toBeGreaterThanOrEqual(group.tokensBefore);
      expect(group).toMatchObject({ candidates: expect.any(Array), tokensAfter: group.tokensBefore, tokensSaved: 0, summary: null });
      expect(group.refusedReason).toBe(
        `the summary (${group.summaryTokens} tokens) would not be smaller than the 3 memories it replaces (${group.tokensBefore} tokens)`,
      );
      expect(s).toMatchObject({ candidateCount: 0, tokensBefore: 0, tokensAfter: 0, tokensSaved: 0, summaries: [] });
      expect(s.refusedReason).toBe(`key-wide memories: ${group.refusedReason}`);
    }
    expect(await rowsOf(app, 'sum-costly')).toEqual(rowsBefore);
  });

  it('compacts the sessions where it saves and refuses the others, each with its own figures', async () => {
    await seed(app, 'sum-mixed', [
      ...facts('Saves', 10, { sessionId: 's1' }),
      { content: 'Short one', sessionId: 's2' },
      { content: 'Short two', sessionId: 's2' },
    ]);
    const s = await compact('sum-mixed');
    const bySession = Object.fromEntries(s.groups.map((g) => [g.sessionId, g]));
    expect(bySession.s1).toMatchObject({ refusedReason: null, summary: { id: s.summaries[0]!.id } });
    expect(bySession.s1.tokensSaved).toBe(bySession.s1.tokensBefore - bySession.s1.tokensAfter);
    expect(bySession.s2).toMatchObject({ tokensSaved: 0, summary: null });
    expect(bySession.s2.refusedReason).toMatch(/would not be smaller/);
    expect(s.tokensSaved).toBe(bySession.s1.tokensSaved);
    const shorts = (await listAll(app, 'sum-mixed', true)).filter((m) => m.content.startsWith('Short'));
    expect(shorts.every((m) => m.status === 'ACTIVE')).toBe(true);
  });
});

describe('deleted means gone, from the summary too', () => {
  const covered = async (apiKeyId: string) => {
    const originals = await seed(app, apiKeyId, [{ key: 'marker', content: 'Keeps a pet zanzibar gecko' }, ...facts('Cover')]);
    const { summary } = await compactOne(apiKeyId);
    expect(summary.content).toContain('zanzibar');
    return { summary, marker: originals.find((m) => m.key === 'marker')! };
  };
  const summaryNow = async (apiKeyId: string) => summaries(await listAll(app, apiKeyId));
  /** What a retrieval asking for the deleted fact injects (null: nothing). */
  const retrievedBlock = async (apiKeyId: string): Promise<string> =>
    (await app.ok(RETRIEVE, { input: { apiKeyId, query: 'zanzibar gecko', strategy: 'HYBRID' } })).retrieve.block ?? '';

  it('rebuilds the summary without a deleted memory, in the same call: its text is never injected again', async () => {
    const { summary, marker } = await covered('sum-del');
    await app.ok(DELETE_MEMORY, { id: marker.id });
    const rebuilt = (await summaryNow('sum-del'))[0]!;
    expect(rebuilt).toMatchObject({ id: summary.id, updatedAt: summary.updatedAt, metadata: { summary: { count: 10 } } });
    expect(rebuilt.content).not.toContain('zanzibar');
    expect(rebuilt.content).toContain('Cover likes item 3');
    expect(rebuilt.tokens).toBe(countTokens(rebuilt.content));
    expect(await retrievedBlock('sum-del')).not.toContain('zanzibar');
  });

  it('rebuilds it when a covered memory is edited: the edit comes back as an active memory, the old text leaves the summary', async () => {
    const { marker } = await covered('sum-edit');
    const { updateMemory } = await app.ok(UPDATE_MEMORY, { id: marker.id, input: { content: 'Keeps a pet tortoise' } });
    expect(updateMemory).toMatchObject({ status: 'ACTIVE' });
    expect((await app.ok(GET, { id: marker.id })).memory!.archivedBy).toBeNull();
    const rebuilt = (await summaryNow('sum-edit'))[0]!;
    expect(rebuilt.content).not.toContain('zanzibar');
    expect(await retrievedBlock('sum-edit')).not.toContain('zanzibar');
  });

  it('rebuilds the summaries covering memories that clearMemories removes', async () => {
    const originals = await seed(app, 'sum-clear', [
      { key: 'marker', content: 'Keeps a pet zanzibar gecko', type: 'EPISODIC' },
      ...facts('Cover'),
    ]);
    const { summary } = await compactOne('sum-clear');
    expect(originals).toHaveLength(11);
    expect((await app.ok(CLEAR_MEMORIES, { apiKeyId: 'sum-clear', type: 'EPISODIC' })).clearMemories).toBe(1);
    const rebuilt = (await summaryNow('sum-clear'))[0]!;
    expect(rebuilt.id).toBe(summary.id);
    expect(rebuilt.content).not.toContain('zanzibar');
  });

  it('removes the summary when none of its originals remain', async () => {
    const { summary } = await covered('sum-none-left');
    // The originals were written 60 days ago, the summary today.
    await app.ok(CLEAR_MEMORIES, { apiKeyId: 'sum-none-left', createdBefore: daysAgo(30) });
    expect((await app.ok(GET, { id: summary.id })).memory).toBeNull();
    expect(await listAll(app, 'sum-none-left', true)).toEqual([]);
  });

  it('brings the rest back and removes the summary when what remains would not be smaller as a summary', async () => {
    const originals = await seed(app, 'sum-shrink', facts('Shrink'));
    const { summary } = await compactOne('sum-shrink');
    for (const m of originals.slice(0, 8)) await app.ok(DELETE_MEMORY, { id: m.id });
    expect((await app.ok(GET, { id: summary.id })).memory).toBeNull();
    const left = await listAll(app, 'sum-shrink', true);
    expect(left.map((m) => m.id).sort()).toEqual(
      originals
        .slice(8)
        .map((m) => m.id)
        .sort(),
    );
    expect(left.every((m) => m.status === 'ACTIVE' && m.archivedBy === null)).toBe(true);
  });

  it('lets restoreSummary undo a rebuilt summary: it restores what remains', async () => {
    const { summary, marker } = await covered('sum-restore-rebuilt');
    await app.ok(DELETE_MEMORY, { id: marker.id });
    const { restoreSummary } = await app.ok(RESTORE, { summaryId: summary.id });
    expect(restoreSummary.restored).toBe(10);
    const all = await listAll(app, 'sum-restore-rebuilt', true);
    expect(all).toHaveLength(10);
    expect(all.every((m) => m.status === 'ACTIVE' && !m.content.includes('zanzibar'))).toBe(true);
  });

  it('brings the originals back when the summary itself is deleted: they are covered by nothing any more', async () => {
    const { summary, marker } = await covered('sum-delete-summary');
    await app.ok(DELETE_MEMORY, { id: summary.id });
    expect((await app.ok(GET, { id: marker.id })).memory).toMatchObject({ status: 'ACTIVE', archivedBy: null });
    expect(await listAll(app, 'sum-delete-summary')).toHaveLength(11);
  });

  it('marks the rebuilt summary for a new vector: its old one carried the deleted text', async () => {
    const { summary, marker } = await covered('sum-del-vector');
    await app.database.db.updateTable('memories').set({ needs_reindex: 0 }).where('id', '=', summary.id).execute();
    await app.ok(DELETE_MEMORY, { id: marker.id });
    expect((await app.ok(GET, { id: summary.id })).memory!.pendingReindex).toBe(true);
  });
});

describe('restoreSummary', () => {
  it('brings every original back as ACTIVE and removes the summary: nothing is lost', async () => {
    await seed(app, 'sum-restore', [
      ...facts('Restore', 8, { type: 'EPISODIC' }),
      { key: 'c', content: 'Packs light', type: 'PROCEDURAL' },
      { key: 'd', content: 'Booked Lisbon yesterday', days: 1 },
    ]);
    const before = (await listAll(app, 'sum-restore', true)).map(essence).sort(byId);
    const { summary } = await compactOne('sum-restore');

    const { restoreSummary } = await app.ok(RESTORE, { summaryId: summary.id });
    expect(restoreSummary.restored).toBe(9);
    expect(restoreSummary.summary.id).toBe(summary.id);

    const after = await listAll(app, 'sum-restore', true);
    expect(after.map(essence).sort(byId)).toEqual(before);
    expect(after.every((m) => m.status === 'ACTIVE' && m.archivedBy === null)).toBe(true);
    expect((await app.ok(GET, { id: summary.id })).memory).toBeNull();
  });

  it('makes the originals retrievable again', async () => {
    const originals = await seed(app, 'sum-restore-2', facts('Favourite pasta'));
    const { summary } = await compactOne('sum-restore-2');
    await app.ok(RESTORE, { summaryId: summary.id });
    const items = (await app.ok(RETRIEVE, { input: { apiKeyId: 'sum-restore-2', query: 'favourite pasta' } })).retrieve.items;
    expect(items.map((i) => i.memory.id).sort()).toEqual(originals.map((m) => m.id).sort());
  });

  it('answers NOT_FOUND for a summary that was already restored, and for an ordinary memory', async () => {
    const plain = (await seed(app, 'sum-restore-3', facts('Reads')))[0]!;
    const { summary } = await compactOne('sum-restore-3');
    await app.ok(RESTORE, { summaryId: summary.id });
    expect(onlyError(await app.gql(RESTORE, { summaryId: summary.id })).extensions?.code).toBe('NOT_FOUND');
    expect(onlyError(await app.gql(RESTORE, { summaryId: plain.id })).extensions?.code).toBe('NOT_FOUND');
    expect((await app.ok(GET, { id: plain.id })).memory).toMatchObject({ status: 'ACTIVE' });
  });
});

describe('which memories are candidates', () => {
  it('leaves enforced memories and recently written ones out', async () => {
    await seed(app, 'sum-cand', [
      ...facts('Bakery'),
      { key: 'rule', content: 'Always answer in French', type: 'ENFORCED' },
      { key: 'fresh', content: 'Started a sourdough course', days: 3 },
    ]);
    const dry = (await summarize('sum-cand', 30, true)).data!.summarize;
    expect(dry.candidates.every((m) => m.content.startsWith('Bakery'))).toBe(true);
    expect(dry.candidateCount).toBe(10);

    const { summary } = await compactOne('sum-cand');
    expect(summary.content).not.toContain('French');
    expect(summary.content).not.toContain('sourdough');
    const byKey = Object.fromEntries((await listAll(app, 'sum-cand', true)).map((m) => [m.key, m]));
    expect(byKey.rule).toMatchObject({ status: 'ACTIVE', archivedBy: null });
    expect(byKey.fresh).toMatchObject({ status: 'ACTIVE', archivedBy: null });
  });

  it('counts age from the last write: an old memory rewritten today is not a candidate', async () => {
    await seed(app, 'sum-age', [{ key: 'z', content: 'Old z' }, ...facts('Age')]);
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'sum-age', key: 'z', content: 'New z' } });
    const dry = (await summarize('sum-age', 30, true)).data!.summarize;
    expect(dry.candidates.map((m) => m.key)).not.toContain('z');
    expect(dry.candidateCount).toBe(10);
  });

  it('writes no summary when fewer than two memories qualify, and says why', async () => {
    const [old] = await seed(app, 'sum-few', [
      { content: 'Only old fact' },
      { content: 'Fresh fact one', days: 1 },
      { content: 'Fresh fact two', days: 0 },
    ]);
    const rowsBefore = await rowsOf(app, 'sum-few');
    const s = (await summarize('sum-few', 30, false)).data!.summarize;
    expect(s).toMatchObject({ dryRun: false, candidateCount: 0, tokensSaved: 0, summaries: [] });
    expect(s.refusedReason).toBe('key-wide memories: a summary needs at least two memories');
    expect(await rowsOf(app, 'sum-few')).toEqual(rowsBefore);
    expect((await app.ok(GET, { id: old!.id })).memory!.status).toBe('ACTIVE');

    const none = (await summarize('sum-nothing-here', 30, false)).data!.summarize;
    expect(none).toMatchObject({ candidateCount: 0, tokensBefore: 0, tokensSaved: 0, summaries: [], groups: [] });
  });
});

describe('who may summarize', () => {
  it('refuses a token bound to key "a" that names key "b" (FORBIDDEN), and changes nothing of b', async () => {
    await seed(app, 'sum-auth-b', facts('B'));
    const tokenA = await app.mintToken({ apiKeyId: 'sum-auth-a' });
    const rowsB = await rowsOf(app, 'sum-auth-b');
    for (const dryRun of [true, false]) {
      const res = await summarize('sum-auth-b', 30, dryRun, tokenA);
      expect(onlyError(res).extensions?.code).toBe('FORBIDDEN');
      expect(res.data?.summarize ?? null).toBeNull();
    }
    expect(await rowsOf(app, 'sum-auth-b')).toEqual(rowsB);
  });

  it('lets a bound token summarize its own key', async () => {
    await seed(app, 'sum-auth-own', facts('Own'));
    const token = await app.mintToken({ apiKeyId: 'sum-auth-own' });
    const res = await summarize('sum-auth-own', 30, false, token);
    expect(res.errors).toBeUndefined();
    expect(res.data!.summarize.summaries[0]!.apiKeyId).toBe('sum-auth-own');
  });

  it('answers NOT_FOUND when a token bound to "a" restores a summary of "b", which stays in place', async () => {
    await seed(app, 'sum-auth-b2', facts('B2'));
    const { summary } = await compactOne('sum-auth-b2');
    const tokenA = await app.mintToken({ apiKeyId: 'sum-auth-a' });
    expect(onlyError(await app.gql(RESTORE, { summaryId: summary.id }, tokenA)).extensions?.code).toBe('NOT_FOUND');
    expect((await app.ok(GET, { id: summary.id })).memory).toMatchObject({ id: summary.id, status: 'ACTIVE' });
    expect((await listAll(app, 'sum-auth-b2', true)).filter((m) => m.status === 'ARCHIVED')).toHaveLength(10);
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
  const pass = (opts: { maxKeys: number; after?: string | null }) =>
    compactOldMemories(own.services, { olderThanDays: 30, minCandidates: 2, ...opts });

  it("compacts each API key separately: one summary per key, holding only that key's facts", async () => {
    await seed(own, 'auto-1', facts('Auto one', 12));
    await seed(own, 'auto-2', facts('Auto two'));
    await seed(own, 'auto-3', [{ content: 'Auto three has one old fact' }, { content: 'Auto three is new here', days: 1 }]);

    const { results } = await pass({ maxKeys: 10 });
    expect(
      results.map((r) => ({ apiKeyId: r.apiKeyId, archived: r.archived })).sort((a, b) => a.apiKeyId.localeCompare(b.apiKeyId)),
    ).toEqual([
      { apiKeyId: 'auto-1', archived: 12 },
      { apiKeyId: 'auto-2', archived: 10 },
    ]);

    for (const [key, mine, theirs] of [
      ['auto-1', 'Auto one', 'Auto two'],
      ['auto-2', 'Auto two', 'Auto one'],
    ] as const) {
      const all = await listAll(own, key, true);
      const written = summaries(all);
      expect(written).toHaveLength(1);
      expect(written[0]!.apiKeyId).toBe(key);
      expect(written[0]!.content).toContain(mine);
      expect(written[0]!.content).not.toContain(theirs);
      expect(all.filter((m) => m.status === 'ARCHIVED').every((m) => m.archivedBy === written[0]!.id)).toBe(true);
    }
    expect((await listAll(own, 'auto-3', true)).every((m) => m.status === 'ACTIVE' && !m.key.startsWith('summary:'))).toBe(true);
  });

  it('compacts at most maxKeys keys per run; the next run goes on where it stopped', async () => {
    for (const key of ['cap-1', 'cap-2', 'cap-3']) await seed(own, key, facts(key));
    const first = await pass({ maxKeys: 2 });
    expect(first.results.map((r) => r.apiKeyId)).toEqual(['cap-1', 'cap-2']);
    const second = await pass({ maxKeys: 2, after: first.next });
    expect(second.results.map((r) => r.apiKeyId)).toEqual(['cap-3']);
    expect((await pass({ maxKeys: 2 })).results).toEqual([]);
  });

  it('skips keys whose summary would not be smaller, so they never take the place of keys where it saves', async () => {
    await seed(own, 'skip-1', [{ content: 'Short one' }, { content: 'Short two' }]);
    await seed(own, 'skip-2', facts('Skip two'));
    const rowsBefore = await rowsOf(own, 'skip-1');
    const { results } = await pass({ maxKeys: 1, after: 'skip-' });
    expect(results.map((r) => r.apiKeyId)).toEqual(['skip-2']);
    expect(await rowsOf(own, 'skip-1')).toEqual(rowsBefore);
  });

  it('writes one summary when an autoSummarize run and a manual summarize of the same key overlap', async () => {
    await seed(own, 'overlap', facts('Overlap'));
    const [auto, manual] = await Promise.all([
      pass({ maxKeys: 10 }),
      summarizeInProcess(own.services, { apiKeyId: 'overlap', olderThanDays: 30, dryRun: false }),
    ]);
    const all = await listAll(own, 'overlap', true);
    const written = summaries(all);
    expect(written).toHaveLength(1);
    // Exactly one of the two runs reports the archiving, and every original points at the one summary.
    const archivedByAuto = auto.results.find((r) => r.apiKeyId === 'overlap')?.archived ?? 0;
    expect(archivedByAuto + (manual.summaries.length > 0 ? manual.candidates.length : 0)).toBe(10);
    expect(all.filter((m) => m.status === 'ARCHIVED').map((m) => m.archivedBy)).toEqual(Array(10).fill(written[0]!.id));
    // So restoring it brings everything back and leaves no second summary behind.
    await own.ok(RESTORE, { summaryId: written[0]!.id });
    expect((await listAll(own, 'overlap', true)).map((m) => m.content).sort()).toEqual(
      facts('Overlap')
        .map((f) => f.content)
        .sort(),
    );
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
    const { summary, candidateCount, candidates } = await compactOne(apiKeyId);
    expect(candidateCount).toBeGreaterThan(1);
    expect(candidateCount).toBeLessThan(40);
    const active = await listAll(app, apiKeyId);
    // The active ones are the summary plus every fact it did not carry.
    expect(active).toHaveLength(1 + 40 - candidateCount);
    for (const c of candidates) expect(summary.content).toContain(c.content.slice(0, 20));
  });
});
