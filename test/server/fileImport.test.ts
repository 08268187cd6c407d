import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, type ResultOf, type VariablesOf } from '../helpers/graphql.ts';
import { documentText } from '../helpers/graphqlHttp.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';
import { ADMIN_TOKEN } from '../helpers/testDb.ts';

// A file sent to the server to import (Memory Studio's Data tab): the same importers as `mnemo import`
// (test/server/importers.test.ts), here through a multipart GraphQL request, a job and its polling.

const FIXTURES = path.join(import.meta.dirname, '../fixtures/import');

const JOB = `
  id
  status
  fileName
  report { dryRun read imported updated merged skipped skippedRows { at reason } versions tombstones deletedByTombstones }
  error { code message }
`;
const START = graphql(`
  mutation FileImportStart($file: File!, $format: ImportFormat!, $dryRun: Boolean!, $apiKeyId: String, $keyFrom: Mem0Field) {
    startFileImport(file: $file, format: $format, dryRun: $dryRun, apiKeyId: $apiKeyId, keyFrom: $keyFrom) { ${JOB} }
  }
`);
const JOB_NOW = graphql(`
  query FileImportNow($id: ID!) {
    fileImport(id: $id) { ${JOB} }
  }
`);
const KEY_MEMORIES = graphql(`
  query FileImportMemories($apiKeyId: String!) {
    memories(apiKeyId: $apiKeyId, includeExpired: true) { items { key content } }
  }
`);
const IMPORT_AUDIT = graphql(`
  query FileImportAudit {
    auditLog(action: MEMORIES_IMPORT, limit: 5) { items { outcome target } }
  }
`);

type Job = ResultOf<typeof START>['startFileImport'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** The operation as the GraphQL multipart request spec sends it: the file as a part of its own, mapped to $file. */
async function send(variables: Omit<VariablesOf<typeof START>, 'file'>, file: File, token = ADMIN_TOKEN) {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query: documentText(START), variables: { ...variables, file: null } }));
  form.set('map', JSON.stringify({ 0: ['variables.file'] }));
  form.set('0', file);
  const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return (await res.json()) as { data?: ResultOf<typeof START>; errors?: { message: string; extensions: { code: string } }[] };
}

/** The job once it has ended, polled as the Studio polls it. */
async function ended(job: Job): Promise<Job> {
  let now = job;
  while (now.status === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = (await app.ok(JOB_NOW, { id: job.id })).fileImport;
  }
  return now;
}

async function importing(variables: Omit<VariablesOf<typeof START>, 'file'>, file: File): Promise<Job> {
  const answer = await send(variables, file);
  expect(answer.errors).toBeUndefined();
  return ended(answer.data!.startFileImport);
}

const fixture = (name: string) => new File([readFileSync(path.join(FIXTURES, name))], name);
const contentsOf = async (apiKeyId: string) => (await app.ok(KEY_MEMORIES, { apiKeyId })).memories.items.map((m) => m.key).sort();

describe('an uploaded file', () => {
  it('in a dry run, reports what each row would become and the skipped rows with their reasons, and stores nothing', async () => {
    const job = await importing({ format: 'JSONL', dryRun: true }, fixture('memories.jsonl'));
    expect(job).toMatchObject({ status: 'COMPLETED', fileName: 'memories.jsonl', error: null });
    expect(job.report).toEqual({
      dryRun: true,
      read: 5,
      imported: 2,
      updated: 0,
      merged: 0,
      skipped: 3,
      skippedRows: [
        { at: 'line 5', reason: 'content must not be empty' },
        { at: 'line 6', reason: 'not JSON' },
        { at: 'line 7', reason: 'type "MOOD" is not one of factual, episodic, procedural, semantic, enforced' },
      ],
      versions: 0,
      tombstones: 0,
      deletedByTombstones: 0,
    });
    expect(await contentsOf('key-carol')).toEqual([]);
  });

  it('is imported for real after the dry run, and on record in the audit log with its counts', async () => {
    const job = await importing({ format: 'CSV', dryRun: false }, fixture('memories.csv'));
    expect(job.report).toMatchObject({ dryRun: false, read: 6, imported: 3, updated: 0, merged: 0, skipped: 3 });
    expect(await contentsOf('key-dana')).toEqual(['how:notes', 'pref:tea', 'trip:oslo']);
    const [entry] = (await app.ok(IMPORT_AUDIT)).auditLog.items;
    expect(entry).toEqual({
      outcome: 'OK',
      target: { format: 'csv', rows: 6, imported: 3, updated: 0, merged: 0, skipped: 3 },
    });
  });

  it('updates the same memories when it is imported again', async () => {
    await importing({ format: 'MEM0', dryRun: false, apiKeyId: 'key-frank' }, fixture('mem0.json'));
    const before = await contentsOf('key-frank');
    const again = await importing({ format: 'MEM0', dryRun: false, apiKeyId: 'key-frank' }, fixture('mem0.json'));
    expect(again.report).toMatchObject({ imported: 0, merged: 0, updated: before.length });
    expect(await contentsOf('key-frank')).toEqual(before);
  });

  it("says how many earlier versions it kept from the file's own history", async () => {
    const job = await importing({ format: 'MEM0', dryRun: false, apiKeyId: 'key-grace' }, fixture('mem0-history.json'));
    expect(job.report).toMatchObject({ imported: 2, versions: 3, tombstones: 0, deletedByTombstones: 0 });
  });

  it('may be an OmniRoute SQLite database', async () => {
    const file = path.join(app.dir, 'omniroute.db');
    const source = new SQLite(file);
    source.exec(readFileSync(path.join(FIXTURES, 'omniroute.sql'), 'utf8'));
    source.close();
    const job = await importing({ format: 'OMNIROUTE', dryRun: false }, new File([readFileSync(file)], 'memory.db'));
    expect(job.report).toMatchObject({ read: 6, imported: 4, skipped: 2 });
    expect(await contentsOf('key-bob')).toEqual(['fact:rust-ownership']);
  });
});

describe('a file the server refuses', () => {
  it('ends the job with a typed error that names the file as it was sent', async () => {
    const job = await importing({ format: 'MEM0', dryRun: true }, fixture('letta.af'));
    expect(job).toMatchObject({
      status: 'FAILED',
      error: { code: 'BAD_USER_INPUT', message: 'letta.af is not a mem0 export: expected { "results": [...] } or a list of memories' },
    });
  });

  it('is refused at once when an option does not apply to its format', async () => {
    const answer = await send({ format: 'JSONL', dryRun: true, apiKeyId: 'key-x' }, fixture('memories.jsonl'));
    expect(answer.errors?.map((e) => [e.extensions.code, e.message])).toEqual([
      ['BAD_USER_INPUT', 'format jsonl rows name their own API keys; apiKeyId does not apply'],
    ]);
  });

  it('answers NOT_FOUND for a job this process never took', async () => {
    const answer = await app.gql(JOB_NOW, { id: 'no-such-job' });
    expect(answer.errors?.map((e) => [e.extensions?.code, e.message])).toEqual([
      ['NOT_FOUND', 'no file import no-such-job in this process (it ended long ago, or another replica took the file)'],
    ]);
  });

  it('is refused to a gateway token, which may not import', async () => {
    const gateway = await app.mintToken({ apiKeyId: 'key-carol' });
    const answer = await send({ format: 'JSONL', dryRun: false }, fixture('memories.jsonl'), gateway);
    expect(answer.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
    expect(await contentsOf('key-carol')).toEqual([]);
  });
});
