import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/validation.ts';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_MEMORY, DELETE_MEMORY, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const INJECT = graphql(`
  mutation InjectionLogInject($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      injected
      receipt {
        tokensUsed
      }
    }
  }
`);

const INJECTIONS = graphql(`
  query InjectionLogPage($apiKeyId: ID!, $first: Int, $after: String) {
    injections(apiKeyId: $apiKeyId, first: $first, after: $after) {
      endCursor
      hasMore
      items {
        id
        at
        sessionId
        query
        receipt {
          skipped
          maxTokens
          tokensUsed
          injected {
            memoryId
            memory {
              content
            }
            tier
            rank
            tokens
          }
          leftOut {
            memoryId
            memory {
              content
            }
            reason
          }
        }
      }
    }
  }
`);

const FORGET = graphql(`
  mutation InjectionLogForget($apiKeyId: String!) {
    forgetApiKey(apiKeyId: $apiKeyId) {
      injectionLogEntries
    }
  }
`);

const DAY = 86_400_000;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  // Capture off: a question asked twice would otherwise be recalled as a memory of its own.
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'OFF', injectionLogDays: 0 } });
});

const inject = (apiKeyId: string, question: string, more: { sessionId?: string; limit?: number } = {}) =>
  app.ok(INJECT, {
    input: {
      request: { model: 'gpt-4o', messages: [{ role: 'user', content: question }] },
      provider: 'openai/gpt-4o',
      retrieval: { apiKeyId, ...more },
    },
  });
const remember = async (apiKeyId: string, ...contents: string[]) => {
  const ids: string[] = [];
  for (const content of contents) ids.push((await app.ok(CREATE_MEMORY, { input: { apiKeyId, content } })).createMemory.id);
  return ids;
};
const page = async (apiKeyId: string, first?: number, after?: string) => (await app.ok(INJECTIONS, { apiKeyId, first, after })).injections;
const rowsOf = async (apiKeyId: string) =>
  (await app.database.db.selectFrom('injection_log').select('id').where('api_key_id', '=', apiKeyId).execute()).length;
const logFor = (days: number) => app.ok(UPDATE_SETTINGS, { input: { injectionLogDays: days } });

describe('the injection log', () => {
  it('is off by default and keeps nothing', async () => {
    await remember('log-off', 'Uses the Helix editor for all code');
    expect((await inject('log-off', 'Which editor, Helix?')).injectMemory.injected).toBe(true);
    expect(await page('log-off')).toEqual({ items: [], endCursor: null, hasMore: false });
    expect(await rowsOf('log-off')).toBe(0);
  });

  it('when on, keeps each injection: its time, session, query and receipt, the memories resolved', async () => {
    await logFor(7);
    await remember('log-on', 'Helix editor keys: space f opens the file picker', 'Helix editor themes live in the runtime folder');
    const { injectMemory } = await inject('log-on', 'helix editor', { sessionId: 's1', limit: 1 });
    expect(injectMemory.receipt).toBeNull();
    const [entry, ...rest] = (await page('log-on')).items;
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ sessionId: 's1', query: 'helix editor', receipt: { skipped: null, maxTokens: 2000 } });
    expect(entry?.receipt.injected).toEqual([expect.objectContaining({ tier: 'KEYWORD', rank: 1, memory: expect.any(Object) })]);
    expect(entry?.receipt.leftOut).toEqual([expect.objectContaining({ reason: 'OVER_LIMIT', memory: expect.any(Object) })]);
  });

  it('says a memory was deleted since by resolving it to null, its id kept', async () => {
    await logFor(7);
    const [id] = await remember('log-deleted', 'Uses the Helix editor for all code');
    await inject('log-deleted', 'Which editor, Helix?');
    await app.ok(DELETE_MEMORY, { id: id! });
    const [entry] = (await page('log-deleted')).items;
    expect(entry?.receipt.injected).toEqual([expect.objectContaining({ memoryId: id, memory: null })]);
  });

  it('pages newest first, each page after the last one', async () => {
    await logFor(7);
    await remember('log-pages', 'Uses the Helix editor for all code');
    for (const question of ['first helix', 'second helix', 'third helix']) await inject('log-pages', question);
    const one = await page('log-pages', 2);
    expect(one.items.map((i) => i.query)).toEqual(['third helix', 'second helix']);
    expect(one.hasMore).toBe(true);
    const two = await page('log-pages', 2, one.endCursor!);
    expect(two.items.map((i) => i.query)).toEqual(['first helix']);
    expect(two.hasMore).toBe(false);
  });

  it(`keeps a key's newest ${LIMITS.injectionLogRows} entries only`, async () => {
    await logFor(7);
    await remember('log-bounded', 'Uses the Helix editor for all code');
    const now = Date.now();
    const old = Array.from({ length: LIMITS.injectionLogRows }, (_, i) => ({
      api_key_id: 'log-bounded',
      session_id: null,
      created_at: now - 1000 + i,
      query: `old ${i}`,
      receipt: JSON.stringify({ skipped: 'disabled', maxTokens: 0, tokensUsed: 0, resolution: null, injected: [], leftOut: [] }),
    }));
    for (let i = 0; i < old.length; i += 200)
      await app.database.db
        .insertInto('injection_log')
        .values(old.slice(i, i + 200))
        .execute();
    await inject('log-bounded', 'Which editor, Helix?');
    expect(await rowsOf('log-bounded')).toBe(LIMITS.injectionLogRows);
    const queries = (await page('log-bounded', 2)).items.map((i) => i.query);
    expect(queries).toEqual(['Which editor, Helix?', `old ${LIMITS.injectionLogRows - 1}`]);
    const oldest = await app.database.db
      .selectFrom('injection_log')
      .select('query')
      .where('api_key_id', '=', 'log-bounded')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(oldest.query).toBe('old 1');
  });

  it('drops the entries older than injectionLogDays at the purge pass', async () => {
    await logFor(7);
    await remember('log-days', 'Uses the Helix editor for all code');
    await inject('log-days', 'Which editor, Helix?');
    await app.database.db
      .insertInto('injection_log')
      .values({ api_key_id: 'log-days', session_id: null, created_at: Date.now() - 8 * DAY, query: 'last week', receipt: '{}' })
      .execute();
    await app.services.purge.pass();
    expect((await page('log-days')).items.map((i) => i.query)).toEqual(['Which editor, Helix?']);
  });

  it('is emptied at the purge pass once turned off', async () => {
    await logFor(7);
    await remember('log-turned-off', 'Uses the Helix editor for all code');
    await inject('log-turned-off', 'Which editor, Helix?');
    await logFor(0);
    await app.services.purge.pass();
    expect(await rowsOf('log-turned-off')).toBe(0);
  });

  it('is erased with its key by forgetApiKey, and says how many entries it held', async () => {
    await logFor(7);
    await remember('log-forget', 'Uses the Helix editor for all code');
    await inject('log-forget', 'Which editor, Helix?');
    await inject('log-forget', 'Which editor, Helix, again?');
    expect((await app.ok(FORGET, { apiKeyId: 'log-forget' })).forgetApiKey.injectionLogEntries).toBe(2);
    expect(await rowsOf('log-forget')).toBe(0);
  });
});

describe('injections: who may read them', () => {
  it("gives a gateway token bound to the key that key's log", async () => {
    await logFor(7);
    await remember('log-own', 'Uses the Helix editor for all code');
    await inject('log-own', 'Which editor, Helix?');
    const token = await app.mintToken({ apiKeyId: 'log-own' });
    expect((await app.ok(INJECTIONS, { apiKeyId: 'log-own' }, token)).injections.items).toHaveLength(1);
  });

  it('refuses a token bound to another key', async () => {
    const token = await app.mintToken({ apiKeyId: 'log-other' });
    expect(onlyError(await app.gql(INJECTIONS, { apiKeyId: 'log-own' }, token)).extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses a gateway token bound to no key', async () => {
    const token = await app.mintToken({ role: 'GATEWAY' });
    expect(onlyError(await app.gql(INJECTIONS, { apiKeyId: 'log-own' }, token)).extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses a page size out of range and a cursor that is not one', async () => {
    expect(onlyError(await app.gql(INJECTIONS, { apiKeyId: 'log-own', first: 0 }))).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: 'first must be between 1 and 100',
    });
    expect(onlyError(await app.gql(INJECTIONS, { apiKeyId: 'log-own', after: 'abc' })).extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses injectionLogDays out of range', async () => {
    const res = await app.gql(UPDATE_SETTINGS, { input: { injectionLogDays: LIMITS.injectionLogDays + 1 } });
    expect(onlyError(res).extensions?.code).toBe('BAD_USER_INPUT');
  });
});
