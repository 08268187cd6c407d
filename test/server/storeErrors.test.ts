import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/open.ts';
import { rowRefusal, storageFault } from '../../server/db/storeErrors.ts';
import { graphql } from '../helpers/graphql.ts';
import { MEMORY_STATS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

// What the PostgreSQL server itself sends, through the pg driver: each error is raised by the server with its SQLSTATE.
describe.skipIf(testStoreKind() !== 'postgres')('PostgreSQL failures', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** The error the server sends for a statement that raises `errcode`. */
  const raised = (errcode: string) =>
    sql
      .raw(`do $$ begin raise exception 'raised by the test' using errcode = '${errcode}'; end $$`)
      .execute(app.database.db)
      .then(
        () => expect.unreachable('the statement raised nothing'),
        (error: unknown) => error,
      );

  it.each([
    ['53100', 'STORAGE_FULL'],
    ['08006', 'UNAVAILABLE'],
    ['57P01', 'UNAVAILABLE'],
    ['53300', 'UNAVAILABLE'],
    ['40001', 'UNAVAILABLE'],
    ['40P01', 'UNAVAILABLE'],
    ['58030', 'STORAGE_ERROR'],
    ['XX001', 'STORAGE_ERROR'],
    ['25006', 'STORAGE_ERROR'],
    ['28P01', 'STORAGE_ERROR'],
  ])('SQLSTATE %s is the typed error %s', async (errcode, code) => {
    const fault = storageFault(await raised(errcode));
    expect(fault?.code).toBe(code);
    expect(fault?.message).toContain(errcode === '53100' ? 'disk is full' : errcode);
  });

  it('leaves a constraint, a bad value or a trigger refusal to the request, as a refusal of its row', async () => {
    for (const errcode of ['23505', '22001', 'P0001']) {
      const error = await raised(errcode);
      expect(storageFault(error)).toBeNull();
      expect(rowRefusal(error)).toBe(`the database refused this row (${errcode})`);
    }
    expect(rowRefusal(await raised('53100'))).toBeNull();
  });

  it('is STORAGE_FULL for a write the server has no disk for, told to the client without SQL or stack', async () => {
    await sql
      .raw(`create function settings_disk_full() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file "base/1/2": No space left on device' using errcode = 'disk_full'; end $$;
        create trigger settings_disk_full before insert or update on settings for each row execute function settings_disk_full()`)
      .execute(app.database.db);
    try {
      expect(onlyError(await app.gql(UPDATE_SETTINGS, { input: { maxTokens: 500 } }))).toMatchInlineSnapshot(
        { extensions: { requestId: expect.any(String) } },
        `
        {
          "extensions": {
            "code": "STORAGE_FULL",
            "requestId": Any<String>,
          },
          "locations": [
            {
              "column": 3,
              "line": 3,
            },
          ],
          "message": "the database cannot grow: the PostgreSQL server's disk is full; free space on it, then retry",
          "path": [
            "updateMemorySettings",
          ],
        }
      `,
      );
    } finally {
      await sql.raw('drop trigger settings_disk_full on settings; drop function settings_disk_full()').execute(app.database.db);
    }
  });

  it("answers a gateway's read though the server has no disk for the token's last-used time", async () => {
    const token = await app.mintToken({ apiKeyId: 'k1' });
    await sql
      .raw(`create function tokens_disk_full() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file "base/1/3": No space left on device' using errcode = 'disk_full'; end $$;
        create trigger tokens_disk_full before update on access_tokens for each row execute function tokens_disk_full()`)
      .execute(app.database.db);
    try {
      const { memories } = await app.ok(MEMORY_STATS, { apiKeyId: 'k1' }, token);
      expect(memories.stats.totalEntries).toBe(0);
    } finally {
      await sql.raw('drop trigger tokens_disk_full on access_tokens; drop function tokens_disk_full()').execute(app.database.db);
    }
  });

  it('is UNAVAILABLE for a request while the server cannot be reached', async () => {
    // Nothing listens on port 1 of the loopback: every connection is refused.
    const unreachable = openPostgres('postgres://mnemo@127.0.0.1:1/mnemo', { poolSize: 1 });
    const { db } = app.services;
    (app.services as { db: unknown }).db = unreachable.db;
    try {
      const auditActions = graphql('query StoreErrorsAuditActions { auditLog { items { action } } }');
      expect(onlyError(await app.gql(auditActions))).toMatchInlineSnapshot(
        { extensions: { requestId: expect.any(String) } },
        `
        {
          "extensions": {
            "code": "UNAVAILABLE",
            "requestId": Any<String>,
          },
          "locations": [
            {
              "column": 3,
              "line": 2,
            },
          ],
          "message": "the PostgreSQL server cannot be reached (ECONNREFUSED); retrying later may work",
          "path": [
            "auditLog",
          ],
        }
      `,
      );
    } finally {
      (app.services as { db: unknown }).db = db;
      await unreachable.close();
    }
  });
});
