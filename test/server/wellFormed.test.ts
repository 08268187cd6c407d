import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../server/memory/memory.service.ts';
import { WellFormedOwnMemoriesDocument as OWN_MEMORIES } from '../generated/graphql.ts';
import {
  CREATE_MEMORY,
  CREATE_TOKEN,
  EXTRACT_FACTS,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  RETRIEVE,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { type GraphQLResponse, type Operation, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

/** Any sequence of UTF-16 code units, lone surrogates included (what a JSON body's \\uD800 escapes can carry). */
const codeUnits = (maxLength = 12) =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });
/** A string that is not well-formed: a lone high or low surrogate somewhere in ordinary text. */
const illFormed = fc
  .tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 6 }))
  .map(([a, s, b]) => `${a}${String.fromCharCode(s)}${b}`);

const count = async (table: 'memories' | 'access_tokens') =>
  (
    await app.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const rowCount = () => count('memories');
const tokenCount = () => count('access_tokens');

function expectNotWellFormed(res: GraphQLResponse, field: string) {
  const error = onlyError(res);
  expect(error.extensions?.code).toBe('BAD_USER_INPUT');
  expect(error.message).toContain(field);
  expect(error.message).toContain('not well-formed Unicode');
}

function expectNulRefused(res: GraphQLResponse, field: string) {
  const error = onlyError(res);
  expect(error.extensions?.code).toBe('BAD_USER_INPUT');
  expect(error.message).toContain(field);
  expect(error.message).toContain('NUL characters are not accepted');
}
/** Text mnemo stores: any code points but U+0000, which it refuses on both stores (PostgreSQL's text cannot hold it). */
const withoutNul = (s: string) => !s.includes('\0');

describe('a token bound to an API key that is not well-formed Unicode', () => {
  it.each(['tenant_\ud800', 'tenant_\udc00', 'tenant_\udc00\ud800'])('is refused (%j), and no token is minted', async (apiKeyId) => {
    const before = await tokenCount();
    expectNotWellFormed(await app.gql(CREATE_TOKEN, { input: { name: 'gw', apiKeyId } }), 'apiKeyId');
    expect(await tokenCount()).toBe(before);
  });

  it('leaves tenant_\\ufffd\\ufffd\\ufffd a tenant of its own, apart from tenant_\\ufffd', async () => {
    const three = await app.mintToken({ apiKeyId: 'tenant_\ufffd\ufffd\ufffd' });
    const one = await app.mintToken({ apiKeyId: 'tenant_\ufffd' });
    await app.ok(CREATE_MEMORY, { input: { content: 'three replacement characters' } }, three);
    await app.ok(CREATE_MEMORY, { input: { content: 'one replacement character' } }, one);
    expect((await app.ok(OWN_MEMORIES, {}, three)).memories.items).toEqual([
      { apiKeyId: 'tenant_\ufffd\ufffd\ufffd', content: 'three replacement characters' },
    ]);
    expect((await app.ok(OWN_MEMORIES, {}, one)).memories.items).toEqual([
      { apiKeyId: 'tenant_\ufffd', content: 'one replacement character' },
    ]);
  });
});

describe('the domain, for callers that are not GraphQL', () => {
  it('refuses an API key that is not well-formed as BAD_USER_INPUT too', async () => {
    await expect(createMemory(app.services, { apiKeyId: 'cli_\ud800', content: 'direct' })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'apiKeyId is not well-formed Unicode (it holds a lone surrogate)',
    });
  });
});

describe('identifiers', () => {
  it('are trimmed, and otherwise compared byte for byte: no Unicode normalisation merges two names', async () => {
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: `  ${composed}\t`, content: 'composed' } });
    await app.ok(CREATE_MEMORY, { input: { apiKeyId: decomposed, content: 'decomposed' } });
    const list = async (apiKeyId: string) => (await app.ok(LIST_MEMORIES, { apiKeyId })).memories.items.map((m) => m.content);
    expect(await list(composed)).toEqual(['composed']);
    expect(await list(decomposed)).toEqual(['decomposed']);
  });

  it('bind a token to the same trimmed name that writes and reads use', async () => {
    const token = await app.mintToken({ apiKeyId: ' bound-trim ' });
    const written = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'bound-trim', content: 'trimmed on both sides' } }, token);
    expect(written.createMemory.apiKeyId).toBe('bound-trim');
  });
});

describe('any API key, through the API (property)', () => {
  it('is refused with BAD_USER_INPUT when it is not well-formed or holds U+0000, and otherwise names exactly one tenant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(codeUnits(), illFormed), async (apiKeyId) => {
        const before = await rowCount();
        const res = await app.gql(CREATE_MEMORY, { input: { apiKeyId, content: `memory of ${JSON.stringify(apiKeyId)}` } });
        if (!apiKeyId.isWellFormed()) {
          expectNotWellFormed(res, 'apiKeyId');
          expect(await rowCount()).toBe(before);
          return;
        }
        if (!withoutNul(apiKeyId)) {
          expectNulRefused(res, 'apiKeyId');
          expect(await rowCount()).toBe(before);
          return;
        }
        const name = apiKeyId.trim();
        if (name === '' || name.length > 256) return void expect(onlyError(res).extensions?.code).toBe('BAD_USER_INPUT');
        expect(res.errors).toBeUndefined();
        expect(res.data.createMemory.apiKeyId).toBe(name);
        const token = await app.mintToken({ apiKeyId: name });
        const own = (await app.ok(OWN_MEMORIES, {}, token)).memories.items;
        expect(own.length).toBeGreaterThan(0);
        expect(own.every((m) => m.apiKeyId === name)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('two distinct well-formed names never see each other’s memories', async () => {
    const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== '' && withoutNul(s));
    await fc.assert(
      fc.asyncProperty(name, name, async (a, b) => {
        fc.pre(a.trim() !== b.trim());
        const ta = await app.mintToken({ apiKeyId: a });
        const tb = await app.mintToken({ apiKeyId: b });
        const marker = `marker-${Math.random()}`;
        await app.ok(CREATE_MEMORY, { input: { content: marker } }, ta);
        const seenByB = (await app.ok(OWN_MEMORIES, {}, tb)).memories.items;
        expect(seenByB.some((m) => m.content === marker)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});

describe('every text field, through the API (property)', () => {
  const fields: [string, Operation, (s: string) => Record<string, unknown>][] = [
    ['content', CREATE_MEMORY, (s) => ({ input: { apiKeyId: 'wf', content: s } })],
    ['key', CREATE_MEMORY, (s) => ({ input: { apiKeyId: 'wf', content: 'text', key: s } })],
    ['sessionId', CREATE_MEMORY, (s) => ({ input: { apiKeyId: 'wf', content: 'text', sessionId: s } })],
    ['metadata', CREATE_MEMORY, (s) => ({ input: { apiKeyId: 'wf', content: 'text', metadata: { note: { deep: [s] } } } })],
    ['metadata', CREATE_MEMORY, (s) => ({ input: { apiKeyId: 'wf', content: 'text', metadata: { [s]: 1 } } })],
    [
      'content',
      IMPORT_MEMORIES,
      (s) => ({
        memories: [
          { apiKeyId: 'wf', content: 'fine' },
          { apiKeyId: 'wf', content: s },
        ],
      }),
    ],
    ['search', LIST_MEMORIES, (s) => ({ apiKeyId: 'wf', search: s })],
    ['query', RETRIEVE, (s) => ({ input: { apiKeyId: 'wf', query: s } })],
    ['text', EXTRACT_FACTS, (s) => ({ input: { apiKeyId: 'wf', role: 'USER', text: `I prefer ${s}` } })],
    ['name', CREATE_TOKEN, (s) => ({ input: { name: s } })],
  ];

  it.each(fields)('%s is refused with BAD_USER_INPUT when it holds a lone surrogate, and nothing is stored', async (field, query, vars) => {
    await fc.assert(
      fc.asyncProperty(illFormed, async (s) => {
        const before = [await rowCount(), await tokenCount()];
        expectNotWellFormed(await app.gql(query, vars(s)), field);
        expect([await rowCount(), await tokenCount()]).toEqual(before);
      }),
      { numRuns: 15 },
    );
  });

  it.each(fields)('%s is refused with BAD_USER_INPUT when it holds U+0000, and nothing is stored', async (field, query, vars) => {
    const before = [await rowCount(), await tokenCount()];
    expectNulRefused(await app.gql(query, vars('before\0after')), field);
    expect([await rowCount(), await tokenCount()]).toEqual(before);
  });

  it('stores well-formed text of any code points but U+0000 exactly as sent', async () => {
    await fc.assert(
      fc.asyncProperty(
        // "__proto__" is refused as a metadata key (memory.crud.test.ts), so it cannot be a key here.
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '' && s !== '__proto__' && withoutNul(s)),
        async (content) => {
          const { createMemory } = await app.ok(CREATE_MEMORY, {
            input: { apiKeyId: 'wf-exact', key: randomUUID(), content, metadata: { [content]: content } },
          });
          const stored = await app.database.db
            .selectFrom('memories')
            .select(['content', 'metadata'])
            .where('id', '=', createMemory.id)
            .executeTakeFirstOrThrow();
          expect(stored.content).toBe(content);
          expect(JSON.parse(stored.metadata)).toEqual({ [content]: content });
        },
      ),
      { numRuns: 40 },
    );
  });
});
