import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryHistory } from '../../server/memory/history.service.ts';
import { listMemories } from '../../server/memory/memory.service.ts';
import type { Memory } from '../../server/memory/memory.ts';
import { type FileImport, importFile } from '../../server/portability/importFile.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// Importers from the memory systems people run today (`mnemo import --from`), each read from a fixture the project
// wrote in that system's shape, on both stores.

const FIXTURES = path.join(import.meta.dirname, '../fixtures/import');
let t: TestDb;
let omniroute: string;
beforeAll(async () => {
  t = await openTestDb();
  omniroute = path.join(t.dir, 'omniroute.db');
  const source = new SQLite(omniroute);
  source.exec(readFileSync(path.join(FIXTURES, 'omniroute.sql'), 'utf8'));
  source.close();
});
afterAll(() => t.close());

const noPlacement = { apiKeyId: null, keyFrom: null, sessionFrom: null };
const run = (job: Partial<FileImport> & Pick<FileImport, 'format' | 'file'>) =>
  importFile(t.services, { placement: noPlacement, dryRun: false, ...job });
const memoriesOf = async (apiKeyId: string): Promise<Memory[]> =>
  (await listMemories(t.services, { apiKeyId, includeExpired: true }, { limit: 100, orderBy: 'key', direction: 'asc' })).items;
const fixture = (name: string) => path.join(FIXTURES, name);

describe('an OmniRoute memory database', () => {
  it('maps each row to the same key, session, type, key, content, metadata and times', async () => {
    const report = await run({ format: 'omniroute', file: omniroute });
    expect(report).toMatchObject({ read: 6, imported: 4, updated: 0, skipped: 2 });
    const alice = await memoriesOf('key-alice');
    expect(alice.find((m) => m.key === 'trip:lisbon')).toMatchObject({
      sessionId: 'sess-7',
      type: 'episodic',
      content: 'Asked about trains from Lisbon to Porto',
      createdAt: new Date('2026-10-02T10:30:00.000Z'),
    });
    expect(alice.find((m) => m.key === 'pref:editor')?.metadata).toEqual({
      source: 'extraction',
      importedFrom: { system: 'omniroute', id: 'om-1' },
    });
    const [bob] = await memoriesOf('key-bob');
    expect(bob).toMatchObject({ key: 'fact:rust-ownership', expiresAt: new Date('2027-10-04T12:00:00.000Z') });
  });

  it('reads a time without a zone, as SQLite writes it, as UTC, and keys a row without a key by its content', async () => {
    const deploys = (await memoriesOf('key-alice')).find((m) => m.content.startsWith('Deploys'));
    expect(deploys?.createdAt).toEqual(new Date('2026-10-03T08:15:00.000Z'));
    expect(deploys?.key).toMatch(/^content:/);
  });

  it('skips the rows it cannot map, each with its reason, and stores the rest', async () => {
    const report = await run({ format: 'omniroute', file: omniroute, dryRun: true });
    expect(report.skippedRows).toEqual([
      { at: 'row om-5', reason: 'type "opinion" is not one of factual, episodic, procedural, semantic, enforced' },
      { at: 'row om-6', reason: 'metadata is not JSON' },
    ]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await memoriesOf('key-alice');
    const again = await run({ format: 'omniroute', file: omniroute });
    expect(again).toMatchObject({ imported: 0, updated: 4 });
    expect(await memoriesOf('key-alice')).toEqual(before.map((m) => ({ ...m, updatedAt: expect.any(Date) })));
  });

  it('refuses a file that is not an OmniRoute database, naming it', async () => {
    const notSqlite = path.join(t.dir, 'notes.txt');
    writeFileSync(notSqlite, 'just some notes\n');
    await expect(run({ format: 'omniroute', file: notSqlite })).rejects.toThrow(`${notSqlite} is not a SQLite database`);
    const otherDb = path.join(t.dir, 'other.db');
    new SQLite(otherDb).exec('create table notes (id integer)').close();
    await expect(run({ format: 'omniroute', file: otherDb })).rejects.toThrow('has no OmniRoute memories table');
  });
});

describe('a mem0 export', () => {
  it('puts each memory under the API key its user_id names, keyed by its mem0 id, with categories and owners', async () => {
    const report = await run({ format: 'mem0', file: fixture('mem0.json') });
    expect(report).toMatchObject({ read: 5, imported: 3, skipped: 2 });
    const [vegetarian, japan] = (await memoriesOf('alice')).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(vegetarian).toMatchObject({
      key: 'mem0:3c90c3cc-0d44-4b50-8888-8dd25736052a',
      type: 'factual',
      content: 'Is vegetarian and allergic to peanuts',
      sessionId: null,
      createdAt: new Date('2026-09-14T15:12:31.512Z'),
      metadata: {
        food: true,
        categories: ['food', 'health'],
        importedFrom: {
          system: 'mem0',
          id: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
          user_id: 'alice',
          agent_id: 'travel-agent',
          run_id: 'trip-2026',
        },
      },
    });
    expect(japan?.content).toBe('Plans a trip to Japan in April');
    expect((await memoriesOf('bob')).map((m) => m.type)).toEqual(['procedural']);
  });

  it('skips a memory without the field that chooses its key, and one without text', async () => {
    const report = await run({ format: 'mem0', file: fixture('mem0.json'), dryRun: true });
    expect(report.skippedRows).toEqual([
      { at: 'memory 4 (9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d)', reason: 'no user_id to choose its API key (or give --api-key)' },
      { at: 'memory 5 (77777777-7777-4777-8777-777777777777)', reason: 'no memory text' },
    ]);
  });

  it('takes the API key and the session from the fields the operator names', async () => {
    await run({ format: 'mem0', file: fixture('mem0.json'), placement: { apiKeyId: null, keyFrom: 'agent_id', sessionFrom: 'run_id' } });
    const agent = await memoriesOf('travel-agent');
    expect(agent.map((m) => [m.content, m.sessionId]).sort()).toEqual([
      ['First check the visa rules, then book the flights', null],
      ['Has no user', null],
      ['Is vegetarian and allergic to peanuts', 'trip-2026'],
    ]);
  });
});

describe("a mem0 export with its memories' history", () => {
  const versionsOf = async (id: string) => {
    const memory = (await memoriesOf('carol')).find((m) => m.key === `mem0:${id}`)!;
    return (await memoryHistory(t.services, memory.id, () => true)).map((v) => [
      v.content,
      v.changedAt.toISOString(),
      v.changedBy,
      v.reason,
    ]);
  };

  it("keeps each UPDATE's earlier wording as a version, from a history on the memory or one by memory id", async () => {
    const report = await run({ format: 'mem0', file: fixture('mem0-history.json') });
    expect(report).toMatchObject({ read: 2, imported: 2, skipped: 0, versions: 3 });
    expect(await versionsOf('5b1f7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b')).toEqual([
      ['Works as a nurse', '2026-10-04T01:30:00.000Z', 'mem0', 'mem0 UPDATE'],
      ['Works as a student nurse', '2026-09-12T15:15:00.000Z', 'carol', 'mem0 UPDATE'],
    ]);
    expect(await versionsOf('6c2a8d2f-3b4e-4f60-9bac-1d2e3f4a5b6c')).toEqual([
      ['Likes trains', '2026-08-20T07:45:00.000Z', 'mem0', 'mem0 UPDATE'],
    ]);
  });

  it('keeps the same versions when imported again', async () => {
    await run({ format: 'mem0', file: fixture('mem0-history.json') });
    const before = await versionsOf('5b1f7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b');
    await run({ format: 'mem0', file: fixture('mem0-history.json') });
    expect(await versionsOf('5b1f7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b')).toEqual(before);
    expect(before).toHaveLength(2);
  });
});

describe('a Letta agent file', () => {
  it("keeps each agent's core memory blocks and archival passages under the key given", async () => {
    const report = await run({ format: 'letta', file: fixture('letta.af'), placement: { ...noPlacement, apiKeyId: 'key-chad' } });
    expect(report).toMatchObject({ read: 5, imported: 4, skipped: 1 });
    const chad = await memoriesOf('key-chad');
    expect(chad.map((m) => [m.key, m.type])).toEqual([
      ['letta:passage:passage-0', 'semantic'],
      ['letta:passage:passage-1', 'semantic'],
      ['letta:support-bot:human', 'factual'],
      ['letta:support-bot:persona', 'procedural'],
    ]);
    expect(report.skippedRows).toEqual([{ at: 'block scratchpad of agent support-bot', reason: 'the block is empty' }]);
  });

  it("names each agent's key after the agent without --api-key, and skips passages of agents the file lacks", async () => {
    const report = await run({ format: 'letta', file: fixture('letta.af') });
    expect((await memoriesOf('support-bot')).map((m) => m.key)).toEqual([
      'letta:passage:passage-0',
      'letta:support-bot:human',
      'letta:support-bot:persona',
    ]);
    expect(report.skippedRows.map((s) => s.at)).toEqual(['block scratchpad of agent support-bot', 'passage 2 (passage-1)']);
  });
});

describe('a CSV table with a header row', () => {
  it('imports each row, quoted commas, quotes and line breaks included, and says why a row was skipped', async () => {
    const report = await run({ format: 'csv', file: fixture('memories.csv') });
    expect(report).toMatchObject({ read: 6, imported: 3, skipped: 3 });
    expect(report.skippedRows).toEqual([
      { at: 'line 6', reason: 'type "MOOD" is not one of factual, episodic, procedural, semantic, enforced' },
      { at: 'line 7', reason: '9 cells where the header names 8' },
      { at: 'line 8', reason: 'metadata is not JSON' },
    ]);
    const dana = await memoriesOf('key-dana');
    expect(dana.map((m) => [m.key, m.type, m.sessionId, m.content])).toEqual([
      ['how:notes', 'procedural', null, 'Writes meeting notes\nas a bulleted list'],
      ['pref:tea', 'factual', null, 'Drinks green tea in the morning'],
      ['trip:oslo', 'episodic', 's1', 'Asked about ferries from Oslo to Kiel, "overnight" ones'],
    ]);
    expect(dana.find((m) => m.key === 'pref:tea')).toMatchObject({
      metadata: { source: 'spreadsheet' },
      createdAt: new Date('2026-11-01T07:00:00Z'),
    });
  });

  it('refuses a table whose header names no content column', async () => {
    const file = path.join(t.dir, 'no-content.csv');
    writeFileSync(file, 'apiKeyId,text\nk,hello\n');
    await expect(run({ format: 'csv', file })).rejects.toThrow('its header row names no content column');
  });
});

describe("mnemo's own JSON lines", () => {
  it('imports each line, skips the header and blank lines, and says in file order why a line was refused', async () => {
    const report = await run({ format: 'jsonl', file: fixture('memories.jsonl') });
    expect(report).toMatchObject({ read: 5, imported: 2, skipped: 3 });
    expect(report.skippedRows).toEqual([
      { at: 'line 5', reason: 'content must not be empty' },
      { at: 'line 6', reason: 'not JSON' },
      { at: 'line 7', reason: 'type "MOOD" is not one of factual, episodic, procedural, semantic, enforced' },
    ]);
    expect((await memoriesOf('key-carol')).map((m) => [m.key, m.type])).toEqual([
      ['how:standup', 'procedural'],
      ['pref:tea', 'factual'],
    ]);
  });
});

describe('the count of each outcome', () => {
  const lines = (file: string, contents: string[]) => {
    const at = path.join(t.dir, file);
    writeFileSync(at, contents.map((content) => JSON.stringify({ apiKeyId: 'key-erin', type: 'factual', content })).join('\n'));
    return at;
  };

  it('counts a row that restates a stored memory in other words as merged, in the dry run as in the import', async () => {
    await run({ format: 'jsonl', file: lines('first.jsonl', ['I live in Berlin']) });
    const file = lines('restated.jsonl', ['I live in Berlin, Germany', 'I drink my coffee black']);
    const outcome = { read: 2, imported: 1, updated: 0, merged: 1, skipped: 0 };
    expect(await run({ format: 'jsonl', file, dryRun: true })).toMatchObject(outcome);
    expect(await run({ format: 'jsonl', file })).toMatchObject(outcome);
    expect((await memoriesOf('key-erin')).map((m) => m.content).sort()).toEqual(['I drink my coffee black', 'I live in Berlin, Germany']);
  });
});
