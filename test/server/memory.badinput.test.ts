import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBadinputExportSinceDocument } from '../generated/graphql.ts';
import {
  CLEAR_MEMORIES,
  CREATE_MEMORY,
  DELETE_MEMORY,
  GET_MEMORY,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  UPDATE_MEMORY,
} from '../helpers/operations.ts';
import { type GraphQLResponse, type Operation, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { testStoreKind } from '../helpers/testStore.ts';

let app: TestApp;
let existing: { id: string };
beforeAll(async () => {
  app = await startTestApp();
  existing = await app
    .ok(CREATE_MEMORY, { input: { apiKeyId: 'bad-1', key: 'kept', content: 'The original text', metadata: { a: 1 } } })
    .then((d) => d.createMemory);
  await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'bad-1', key: 'other', content: 'Another memory' } });
});
afterAll(() => app.close());

const MB = 'x'.repeat(1024 * 1024);
/** { a: { a: ... { a: 1 } } }, `depth` objects deep; built without recursion. */
const nested = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value as Record<string, unknown>;
};
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** Every row of every memory, so a test can prove that a rejected request changed nothing. */
const snapshot = async () => JSON.stringify(await app.database.db.selectFrom('memories').selectAll().orderBy('pk').execute());

/** The request failed as the caller's fault, with a clear message, and leaked nothing of the engine. */
function expectRejected(res: GraphQLResponse, code: string, message: string | RegExp) {
  expect(res.status).toBeLessThan(500);
  expect(res.errors, `expected an error, got ${JSON.stringify(res.data)}`).toBeDefined();
  for (const e of res.errors!) {
    expect(e.message).not.toMatch(/sqlite/i);
    expect(e.message).not.toMatch(/\n\s+at /);
    expect(e.message).not.toBe('Unexpected error.');
  }
  const [first] = res.errors!;
  expect(first!.extensions?.code).toBe(code);
  if (typeof message === 'string') expect(first!.message).toContain(message);
  else expect(first!.message).toMatch(message);
}

interface Case {
  name: string;
  /** A typed operation, or a text whose inline values are the bad input. */
  query: Operation | string;
  variables?: () => Record<string, unknown>;
  code?: string;
  message: string | RegExp;
}

const inlineCreate = (fields: string) => `mutation { createMemory(input: { apiKeyId: "bad-1", content: "valid text", ${fields} }) { id } }`;
const inlineUpdate = (fields: string) => `mutation($id: ID!) { updateMemory(id: $id, input: { ${fields} }) { id } }`;
/** Sends a case's operation: a text as written, a typed document with variables that may be wrong on purpose. */
const send = (query: Operation | string, variables?: Record<string, unknown>) =>
  typeof query === 'string' ? app.gqlRaw(query, variables) : app.gql(query, variables);
const createWith = (input: Record<string, unknown>) => () => ({ input: { apiKeyId: 'bad-1', content: 'valid text', ...input } });
const updateWith = (input: Record<string, unknown>, id?: string) => () => ({ id: id ?? existing.id, input });

const cases: Record<string, Case[]> = {
  createMemory: [
    { name: 'empty content', query: CREATE_MEMORY, variables: createWith({ content: '' }), message: 'content must not be empty' },
    {
      name: 'whitespace-only content',
      query: CREATE_MEMORY,
      variables: createWith({ content: '  \n\t ' }),
      message: 'content must not be empty',
    },
    { name: 'missing content', query: CREATE_MEMORY, variables: createWith({ content: null }), message: /content/ },
    {
      name: '1 MB of content',
      query: CREATE_MEMORY,
      variables: createWith({ content: MB }),
      message: 'content is longer than 65536 characters',
    },
    {
      name: 'an unknown type (variable)',
      query: CREATE_MEMORY,
      variables: createWith({ type: 'OPINION' }),
      message: /"OPINION".*MemoryType/,
    },
    {
      name: 'an unknown type (inline)',
      query: inlineCreate('type: OPINION'),
      code: 'GRAPHQL_VALIDATION_FAILED',
      message: /"OPINION".*MemoryType/,
    },
    { name: 'a lower-case type (variable)', query: CREATE_MEMORY, variables: createWith({ type: 'factual' }), message: /MemoryType/ },
    {
      name: 'metadata that is an array (variable)',
      query: CREATE_MEMORY,
      variables: createWith({ metadata: [1, 2] }),
      message: 'metadata must be a JSON object',
    },
    {
      name: 'metadata that is a string (variable)',
      query: CREATE_MEMORY,
      variables: createWith({ metadata: '{"a":1}' }),
      message: 'metadata must be a JSON object',
    },
    {
      name: 'metadata that is a number (variable)',
      query: CREATE_MEMORY,
      variables: createWith({ metadata: 42 }),
      message: 'metadata must be a JSON object',
    },
    { name: 'metadata that is an array (inline)', query: inlineCreate('metadata: [1, 2]'), message: 'metadata must be a JSON object' },
    { name: 'metadata that is a string (inline)', query: inlineCreate('metadata: "{}"'), message: 'metadata must be a JSON object' },
    { name: 'metadata that is a number (inline)', query: inlineCreate('metadata: 42'), message: 'metadata must be a JSON object' },
    {
      name: 'metadata over 16 KB',
      query: CREATE_MEMORY,
      variables: createWith({ metadata: { blob: 'y'.repeat(17_000) } }),
      message: 'metadata is larger than 16384 bytes',
    },
    { name: 'an empty key', query: CREATE_MEMORY, variables: createWith({ key: ' ' }), message: 'key must not be empty' },
    {
      name: 'a key over 512 characters',
      query: CREATE_MEMORY,
      variables: createWith({ key: 'k'.repeat(513) }),
      message: 'key is longer than 512 characters',
    },
    { name: 'an empty apiKeyId', query: CREATE_MEMORY, variables: createWith({ apiKeyId: '' }), message: 'apiKeyId must not be empty' },
    { name: 'no apiKeyId from an admin', query: CREATE_MEMORY, variables: createWith({ apiKeyId: null }), message: 'apiKeyId is required' },
    {
      name: 'an expiresAt that is not a date',
      query: CREATE_MEMORY,
      variables: createWith({ expiresAt: 'tomorrow' }),
      message: /DateTime|date/,
    },
    {
      name: 'an expiresAt of February 30th',
      query: CREATE_MEMORY,
      variables: createWith({ expiresAt: '2030-02-30T00:00:00Z' }),
      message: /not a valid date/,
    },
    {
      name: 'a createdAt in month 13',
      query: CREATE_MEMORY,
      variables: createWith({ createdAt: '2026-13-01T00:00:00Z' }),
      message: /not a valid date/,
    },
    { name: 'a createdAt that is a number (inline)', query: inlineCreate('createdAt: 1700000000000'), message: /DateTime/ },
    {
      name: 'a createdAt in the year 9999',
      query: CREATE_MEMORY,
      variables: createWith({ createdAt: '9999-12-31T23:59:59Z' }),
      message: 'createdAt must not be in the future',
    },
    {
      name: 'a createdAt in the year 0001',
      query: CREATE_MEMORY,
      variables: createWith({ createdAt: '0001-01-01T00:00:00Z' }),
      message: 'createdAt must be between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z',
    },
    {
      name: 'an expiresAt in the year 0001',
      query: CREATE_MEMORY,
      variables: createWith({ expiresAt: '0001-01-01T00:00:00Z' }),
      message: 'expiresAt must be between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z',
    },
    {
      name: 'metadata 33 levels deep',
      query: CREATE_MEMORY,
      variables: createWith({ metadata: nested(33) }),
      message: 'metadata is nested deeper than 32 levels',
    },
    {
      name: 'metadata 400 levels deep (inline)',
      query: inlineCreate(`metadata: ${'{a: '.repeat(400)}1${'}'.repeat(400)}`),
      message: 'metadata is nested deeper than 32 levels',
    },
    {
      name: 'metadata 10,000 levels deep (inline, more tokens than a document may have)',
      query: inlineCreate(`metadata: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}`),
      code: 'GRAPHQL_PARSE_FAILED',
      message: /Token limit/,
    },
  ],
  updateMemory: [
    {
      name: 'an id that is not a UUID',
      query: UPDATE_MEMORY,
      variables: updateWith({ content: 'new' }, 'memory-1'),
      message: 'id must be a UUID',
    },
    { name: 'an empty id', query: UPDATE_MEMORY, variables: updateWith({ content: 'new' }, ''), message: 'id must be a UUID' },
    {
      name: 'an unknown id',
      query: UPDATE_MEMORY,
      variables: updateWith({ content: 'new' }, UNKNOWN_UUID),
      code: 'NOT_FOUND',
      message: UNKNOWN_UUID,
    },
    { name: 'empty content', query: UPDATE_MEMORY, variables: updateWith({ content: '' }), message: 'content must not be empty' },
    {
      name: 'whitespace-only content',
      query: UPDATE_MEMORY,
      variables: updateWith({ content: '\n \n' }),
      message: 'content must not be empty',
    },
    {
      name: '1 MB of content',
      query: UPDATE_MEMORY,
      variables: updateWith({ content: MB }),
      message: 'content is longer than 65536 characters',
    },
    { name: 'an unknown type (variable)', query: UPDATE_MEMORY, variables: updateWith({ type: 'OPINION' }), message: /MemoryType/ },
    {
      name: 'metadata that is an array (variable)',
      query: UPDATE_MEMORY,
      variables: updateWith({ metadata: [] }),
      message: 'metadata must be a JSON object',
    },
    {
      name: 'metadata that is a string (variable)',
      query: UPDATE_MEMORY,
      variables: updateWith({ metadata: 'a' }),
      message: 'metadata must be a JSON object',
    },
    {
      name: 'metadata that is a number (inline)',
      query: inlineUpdate('metadata: 7'),
      variables: () => ({ id: existing.id }),
      message: 'metadata must be a JSON object',
    },
    { name: 'an empty key', query: UPDATE_MEMORY, variables: updateWith({ key: '' }), message: 'key must not be empty' },
    {
      name: 'a key over 512 characters',
      query: UPDATE_MEMORY,
      variables: updateWith({ key: 'k'.repeat(513) }),
      message: 'key is longer than 512 characters',
    },
    { name: 'an empty sessionId', query: UPDATE_MEMORY, variables: updateWith({ sessionId: '' }), message: 'sessionId must not be empty' },
    {
      name: 'an expiresAt that is not a date',
      query: UPDATE_MEMORY,
      variables: updateWith({ expiresAt: '31/01/2026' }),
      message: /DateTime/,
    },
    {
      name: 'an expiresAt before 1970',
      query: UPDATE_MEMORY,
      variables: updateWith({ expiresAt: '1969-12-31T23:59:59Z' }),
      message: 'expiresAt must be between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z',
    },
  ],
  deleteMemory: [
    { name: 'an id that is not a UUID', query: DELETE_MEMORY, variables: () => ({ id: 'not-a-uuid' }), message: 'id must be a UUID' },
    { name: 'an empty id', query: DELETE_MEMORY, variables: () => ({ id: '' }), message: 'id must be a UUID' },
    { name: 'an id with SQL in it', query: DELETE_MEMORY, variables: () => ({ id: "' or 1=1 --" }), message: 'id must be a UUID' },
    { name: 'an unknown id', query: DELETE_MEMORY, variables: () => ({ id: UNKNOWN_UUID }), code: 'NOT_FOUND', message: UNKNOWN_UUID },
  ],
  clearMemories: [
    { name: 'an empty apiKeyId', query: CLEAR_MEMORIES, variables: () => ({ apiKeyId: '' }), message: 'apiKeyId must not be empty' },
    { name: 'a blank apiKeyId', query: CLEAR_MEMORIES, variables: () => ({ apiKeyId: '   ' }), message: 'apiKeyId must not be empty' },
    { name: 'no apiKeyId', query: CLEAR_MEMORIES, variables: () => ({ apiKeyId: null }), message: /apiKeyId/ },
    { name: 'an unknown type', query: CLEAR_MEMORIES, variables: () => ({ apiKeyId: 'bad-1', type: 'ALL' }), message: /MemoryType/ },
    {
      name: 'a createdBefore that is not a date',
      query: CLEAR_MEMORIES,
      variables: () => ({ apiKeyId: 'bad-1', createdBefore: 'now' }),
      message: /DateTime/,
    },
    {
      name: 'a createdBefore of February 30th',
      query: CLEAR_MEMORIES,
      variables: () => ({ apiKeyId: 'bad-1', createdBefore: '2099-02-30' }),
      message: /not a valid date/,
    },
  ],
  importMemories: [
    {
      name: 'more than 10000 rows',
      query: IMPORT_MEMORIES,
      variables: () => ({ memories: Array.from({ length: 10_001 }, (_, i) => ({ apiKeyId: 'bad-1', key: `many-${i}`, content: 'row' })) }),
      message: 'import at most 10000 rows per call',
    },
    {
      name: 'a row with an unknown type',
      query: IMPORT_MEMORIES,
      variables: () => ({
        memories: [
          { apiKeyId: 'bad-1', key: 'ok-row', content: 'fine' },
          { apiKeyId: 'bad-1', content: 'x', type: 'OPINION' },
        ],
      }),
      message: /MemoryType/,
    },
    {
      name: 'a row whose metadata is an array',
      query: IMPORT_MEMORIES,
      variables: () => ({
        memories: [
          { apiKeyId: 'bad-1', key: 'ok-row', content: 'fine' },
          { apiKeyId: 'bad-1', content: 'x', metadata: [1] },
        ],
      }),
      message: 'metadata must be a JSON object',
    },
    {
      name: 'a row without content',
      query: IMPORT_MEMORIES,
      variables: () => ({
        memories: [
          { apiKeyId: 'bad-1', key: 'ok-row', content: 'fine' },
          { apiKeyId: 'bad-1', key: 'no-content' },
        ],
      }),
      message: /content/,
    },
    {
      name: 'memories that is not a list of objects',
      query: IMPORT_MEMORIES,
      variables: () => ({ memories: 'everything' }),
      message: /MemoryInput/,
    },
  ],
};

for (const [mutation, list] of Object.entries(cases)) {
  describe(`${mutation} with bad input`, () => {
    it.each(list)('rejects $name with a clear error and changes nothing', async ({ query, variables, code, message }) => {
      const before = await snapshot();
      const res = await send(query, variables?.());
      expectRejected(res, code ?? 'BAD_USER_INPUT', message);
      expect(await snapshot()).toBe(before);
    });
  });
}

const LIST_BAD: Case[] = [
  { name: 'limit 0', query: LIST_MEMORIES, variables: () => ({ limit: 0 }), message: 'limit must be between 1 and 500' },
  { name: 'limit 501', query: LIST_MEMORIES, variables: () => ({ limit: 501 }), message: 'limit must be between 1 and 500' },
  { name: 'a negative limit', query: LIST_MEMORIES, variables: () => ({ limit: -5 }), message: 'limit must be between 1 and 500' },
  { name: 'a limit beyond 32 bits', query: LIST_MEMORIES, variables: () => ({ limit: 2 ** 31 }), message: /Int/ },
  { name: 'a fractional limit', query: LIST_MEMORIES, variables: () => ({ limit: 2.5 }), message: /Int/ },
  { name: 'a negative offset', query: LIST_MEMORIES, variables: () => ({ offset: -1 }), message: 'offset must not be negative' },
  {
    name: 'a createdAfter that is not a date',
    query: LIST_MEMORIES,
    variables: () => ({ createdAfter: 'last week' }),
    message: /DateTime/,
  },
  {
    name: 'a createdBefore of February 30th',
    query: LIST_MEMORIES,
    variables: () => ({ createdBefore: '2026-02-30T10:00:00Z' }),
    message: /not a valid date/,
  },
  { name: 'an unknown order field', query: LIST_MEMORIES, variables: () => ({ orderBy: 'CONTENT' }), message: /MemoryOrderField/ },
  { name: 'an unknown direction', query: LIST_MEMORIES, variables: () => ({ direction: 'UP' }), message: /SortDirection/ },
  { name: 'a memory id that is not a UUID', query: GET_MEMORY, variables: () => ({ id: 'abc' }), message: 'id must be a UUID' },
  { name: 'an empty memory id', query: GET_MEMORY, variables: () => ({ id: '' }), message: 'id must be a UUID' },
  {
    name: 'an export with a createdAfter that is not a date',
    query: MemoryBadinputExportSinceDocument,
    variables: () => ({ createdAfter: '2026-01-01 12:00' }),
    message: /DateTime/,
  },
];

describe('reading memories with bad input', () => {
  it.each(LIST_BAD)('rejects $name with a clear error', async ({ query, variables, code, message }) => {
    expectRejected(await send(query, variables?.()), code ?? 'BAD_USER_INPUT', message);
  });

  it('reports an unknown memory id as absent, not as an error', async () => {
    const res = await app.gql(GET_MEMORY, { id: UNKNOWN_UUID });
    expect(res.errors).toBeUndefined();
    expect(res.data.memory).toBeNull();
  });
});

describe('dates at the edge of the calendar', () => {
  it.each(['2028-02-29T23:30:00-05:00', '2026-12-31', '2026-01-31T00:00Z', '2026-04-30T12:00:00.123+0200'])(
    'accepts the real date %s',
    async (d) => {
      const res = await app.gql(LIST_MEMORIES, { createdAfter: d });
      expect(res.errors).toBeUndefined();
    },
  );

  it.each(['2027-02-29', '2026-04-31T00:00:00Z', '2026-00-10', '2026-06-00T00:00:00Z'])('rejects the impossible date %s', async (d) => {
    expectRejected(await app.gql(LIST_MEMORIES, { createdAfter: d }), 'BAD_USER_INPUT', 'not a valid date');
  });

  it('names the import row whose date is not one, so a file of thousands can be mended', async () => {
    const memories = [
      { apiKeyId: 'date-import', content: 'first', createdAt: '2026-01-31T00:00:00Z' },
      { apiKeyId: 'date-import', content: 'second', createdAt: '31/01/2026' },
    ];
    const res = await app.gql(IMPORT_MEMORIES, { memories });
    expectRejected(res, 'BAD_USER_INPUT', 'at "memories[1].createdAt"');
    expect(res.errors![0]!.message).toContain('DateTime must be an ISO 8601 string');
  });
});

describe('metadata 10,000 levels deep, as a variable', () => {
  // JSON.stringify of such a value throws (as it did in the server), so the body is written out.
  const deepJson = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  it('is refused by createMemory as BAD_USER_INPUT', async () => {
    const res = await app.gqlJson(CREATE_MEMORY, `{"input":{"apiKeyId":"bad-1","content":"deep","metadata":${deepJson}}}`);
    expectRejected(res, 'BAD_USER_INPUT', 'metadata is nested deeper than 32 levels');
  });

  it('is refused by updateMemory as BAD_USER_INPUT', async () => {
    const res = await app.gqlJson(UPDATE_MEMORY, `{"id":"${existing.id}","input":{"metadata":${deepJson}}}`);
    expectRejected(res, 'BAD_USER_INPUT', 'metadata is nested deeper than 32 levels');
  });

  it('is one rejected row of an import, and the other rows land', async () => {
    const res = await app.gqlJson(
      IMPORT_MEMORIES,
      `{"memories":[{"apiKeyId":"deep-import","content":"first"},{"apiKeyId":"deep-import","key":"deep","content":"deep","metadata":${deepJson}},{"apiKeyId":"deep-import","content":"third"}]}`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.importMemories).toEqual({
      imported: 2,
      updated: 0,
      rejected: [{ index: 1, key: 'deep', reason: 'metadata is nested deeper than 32 levels' }],
    });
  });
});

describe('an import row that SQLite itself refuses', () => {
  // SQLite's trigger and refusal codes; PostgreSQL's refusals are mapped to typed errors by the store's error module.
  it.skipIf(testStoreKind() === 'postgres')('is reported with the reason, and the rows before and after it land', async () => {
    // A real refusal by the database: a trigger, standing in for any constraint the domain does not check first. FAIL
    // (unlike ABORT) keeps what the statement did before it, the memory row itself: only the row's savepoint undoes it.
    app.database.sqlite.exec(`create trigger refuse_row after insert on memories when new.content = 'refused'
      begin select raise(fail, 'refused by the test'); end`);
    try {
      const { importMemories } = await app.ok(IMPORT_MEMORIES, {
        memories: [
          { apiKeyId: 'refused-import', key: 'a', content: 'before' },
          { apiKeyId: 'refused-import', key: 'b', content: 'refused' },
          { apiKeyId: 'refused-import', key: 'c', content: 'after' },
        ],
      });
      expect(importMemories).toEqual({
        imported: 2,
        updated: 0,
        rejected: [{ index: 1, key: 'b', reason: 'the database refused this row (SQLITE_CONSTRAINT_TRIGGER)' }],
      });
      const listed = (await app.ok(LIST_MEMORIES, { apiKeyId: 'refused-import' })).memories.items.map((m) => m.key);
      expect(listed.sort()).toEqual(['a', 'c']);
    } finally {
      app.database.sqlite.exec('drop trigger refuse_row');
    }
  });
});

describe('limits and what they say', () => {
  it('stores a key of 300 characters, and refuses one of 513 naming the one limit, 512', async () => {
    const stored = await app.gql(CREATE_MEMORY, { input: { apiKeyId: 'limits', content: 'long key', key: 'k'.repeat(300) } });
    expect(stored.errors).toBeUndefined();
    const refused = await app.gql(CREATE_MEMORY, { input: { apiKeyId: 'limits', content: 'long key', key: 'k'.repeat(513) } });
    expect(refused.errors?.map((e) => e.message)).toEqual(['key is longer than 512 characters']);
  });

  it('stores metadata 32 levels deep and an expiresAt on the last day of year 9999, and reads them back', async () => {
    const input = { apiKeyId: 'limits', content: 'edge values', metadata: nested(32), expiresAt: '9999-12-31T23:59:59.999Z' };
    const { createMemory } = await app.ok(CREATE_MEMORY, { input });
    expect(createMemory.metadata).toEqual(nested(32));
    expect(createMemory.expiresAt).toBe('9999-12-31T23:59:59.999Z');
  });

  it('stores a createdAt a minute ahead of the server clock (clock skew), as written', async () => {
    const createdAt = new Date(Date.now() + 60_000).toISOString();
    const { createMemory } = await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'limits', content: 'skewed clock', createdAt } });
    expect(createMemory.createdAt).toBe(createdAt);
  });
});

describe('after all that bad input', () => {
  it('still serves requests and still holds the original memories unchanged', async () => {
    const { memory } = await app.ok(GET_MEMORY, { id: existing.id });
    expect(memory).toMatchObject({ key: 'kept', content: 'The original text', metadata: { a: 1 } });
    expect((await app.ok(LIST_MEMORIES, { apiKeyId: 'bad-1' })).memories.totalCount).toBe(2);
    const res = await fetch(`${app.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
