import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthAccessTokenFieldNamesDocument,
  AuthEveryTokenFieldDocument,
  AuthTokenStartsDocument,
  type CreateAccessTokenInput,
  AuthViewerDocument as VIEWER,
} from '../generated/graphql.ts';
import {
  CLEAR_MEMORIES,
  CREATE_MEMORY,
  CREATE_TOKEN,
  DELETE_MEMORY,
  EXPORT_MEMORIES,
  GET_MEMORY,
  GET_SETTINGS,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  LIST_TOKENS,
  type MemoryInput,
  REVOKE_TOKEN,
  UPDATE_MEMORY,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { ADMIN_TOKEN, type Operation, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const asAdmin = (input: MemoryInput) => app.ok(CREATE_MEMORY, { input }).then((d) => d.createMemory);
const codeOf = (res: Awaited<ReturnType<TestApp['gql']>>) => onlyError(res).extensions?.code;

/** Mints a token and also returns its id, for tests that revoke it. */
async function mint(input: CreateAccessTokenInput) {
  return (await app.ok(CREATE_TOKEN, { input })).createAccessToken;
}

/** The raw HTTP exchange, for checks on status and body that the JSON helper hides. */
async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.url}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('authentication', () => {
  it('answers 401 UNAUTHENTICATED when no Authorization header is sent', async () => {
    const res = await app.gql(GET_SETTINGS, {}, null);
    expect(res.status).toBe(401);
    expect(res.data ?? null).toBeNull();
    expect(codeOf(res)).toBe('UNAUTHENTICATED');
  });

  it('asks for a Bearer token in WWW-Authenticate on a 401', async () => {
    const res = await raw('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
      body: JSON.stringify({ query: GET_SETTINGS }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers UNAUTHENTICATED for a token it does not know', async () => {
    const res = await app.gql(GET_SETTINGS, {}, 'mnemo_not-a-real-token');
    expect(res.status).toBe(401);
    expect(codeOf(res)).toBe('UNAUTHENTICATED');
  });

  it('answers UNAUTHENTICATED for an Authorization header that is not a Bearer token', async () => {
    const res = await raw('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${ADMIN_TOKEN}` },
      body: JSON.stringify({ query: GET_SETTINGS }),
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('accepts the configured admin token (MNEMO_ADMIN_TOKEN)', async () => {
    const res = await app.gql(GET_SETTINGS, {}, ADMIN_TOKEN);
    expect(res.errors).toBeUndefined();
    expect(res.data.memorySettings).toHaveProperty('enabled');
  });

  it('stops accepting a revoked token at once', async () => {
    const { token, accessToken } = await mint({ name: 'soon revoked', apiKeyId: 'revoke-me' });
    expect((await app.gql(LIST_MEMORIES, {}, token)).errors).toBeUndefined();
    const { revokeAccessToken } = await app.ok(REVOKE_TOKEN, { id: accessToken.id });
    expect(revokeAccessToken.revokedAt).not.toBeNull();
    const res = await app.gql(LIST_MEMORIES, {}, token);
    expect(res.status).toBe(401);
    expect(codeOf(res)).toBe('UNAUTHENTICATED');
  });

  it('reports NOT_FOUND when revoking a token twice', async () => {
    const { accessToken } = await mint({ name: 'revoked twice' });
    await app.ok(REVOKE_TOKEN, { id: accessToken.id });
    expect(codeOf(await app.gql(REVOKE_TOKEN, { id: accessToken.id }))).toBe('NOT_FOUND');
  });
});

describe('a gateway token bound to API key "a"', () => {
  let tokenA: string;
  let memoryOfB: { id: string };
  beforeAll(async () => {
    tokenA = await app.mintToken({ apiKeyId: 'a' });
    memoryOfB = await asAdmin({ apiKeyId: 'b', key: 'secret-of-b', content: 'B likes tea' });
  });

  const asA = <TResult>(query: Operation<TResult>, variables: Record<string, unknown> = {}) => app.gql(query, variables, tokenA);

  it('creates, lists, reads, updates and deletes memories of "a"', async () => {
    const created = await asA(CREATE_MEMORY, { input: { apiKeyId: 'a', key: 'bound-crud', content: 'A likes coffee' } });
    expect(created.errors).toBeUndefined();
    const id = created.data.createMemory.id;
    expect(created.data.createMemory.apiKeyId).toBe('a');

    const listed = await asA(LIST_MEMORIES, { apiKeyId: 'a' });
    expect(listed.errors).toBeUndefined();
    expect(listed.data.memories.items.map((m) => m.id)).toContain(id);

    const read = await asA(GET_MEMORY, { id });
    expect(read.data.memory?.content).toBe('A likes coffee');

    const updated = await asA(UPDATE_MEMORY, { id, input: { content: 'A likes espresso' } });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateMemory.content).toBe('A likes espresso');

    const deleted = await asA(DELETE_MEMORY, { id });
    expect(deleted.errors).toBeUndefined();
    expect((await asA(GET_MEMORY, { id })).data.memory).toBeNull();
  });

  it('may omit apiKeyId: writes and reads default to "a"', async () => {
    const created = await asA(CREATE_MEMORY, { input: { key: 'bound-default', content: 'Defaults to a' } });
    expect(created.errors).toBeUndefined();
    expect(created.data.createMemory.apiKeyId).toBe('a');

    const listed = await asA(LIST_MEMORIES, {});
    expect(listed.errors).toBeUndefined();
    const keys = listed.data.memories.items.map((m) => m.apiKeyId);
    expect(new Set(keys)).toEqual(new Set(['a']));

    const exported = await asA(EXPORT_MEMORIES, {});
    expect(exported.errors).toBeUndefined();
    expect(exported.data.exportMemories.map((m) => m.key)).toContain('bound-default');
  });

  it('is FORBIDDEN to create a memory for "b"', async () => {
    const res = await asA(CREATE_MEMORY, { input: { apiKeyId: 'b', content: 'sneaky' } });
    expect(codeOf(res)).toBe('FORBIDDEN');
    const ofB = await app.ok(EXPORT_MEMORIES, { apiKeyId: 'b' });
    expect(ofB.exportMemories.map((m) => m.content)).not.toContain('sneaky');
  });

  it('is FORBIDDEN to list the memories of "b"', async () => {
    const res = await asA(LIST_MEMORIES, { apiKeyId: 'b' });
    expect(codeOf(res)).toBe('FORBIDDEN');
    expect(res.data ?? null).toBeNull();
  });

  it('is FORBIDDEN to export the memories of "b"', async () => {
    expect(codeOf(await asA(EXPORT_MEMORIES, { apiKeyId: 'b' }))).toBe('FORBIDDEN');
  });

  it('is FORBIDDEN to clear the memories of "b", and nothing of "b" is deleted', async () => {
    expect(codeOf(await asA(CLEAR_MEMORIES, { apiKeyId: 'b' }))).toBe('FORBIDDEN');
    expect((await app.ok(GET_MEMORY, { id: memoryOfB.id })).memory).not.toBeNull();
  });

  it('sees a memory of "b" as absent, exactly like an id that does not exist', async () => {
    const res = await asA(GET_MEMORY, { id: memoryOfB.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.memory).toBeNull();
  });

  it('gets NOT_FOUND (not FORBIDDEN) updating or deleting a memory of "b", which stays unchanged', async () => {
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const update = onlyError(await asA(UPDATE_MEMORY, { id: memoryOfB.id, input: { content: 'overwritten' } }));
    const updateUnknown = onlyError(await asA(UPDATE_MEMORY, { id: unknownId, input: { content: 'overwritten' } }));
    expect(update.extensions?.code).toBe('NOT_FOUND');
    expect(update.message).toBe(updateUnknown.message.replace(unknownId, memoryOfB.id));

    const del = onlyError(await asA(DELETE_MEMORY, { id: memoryOfB.id }));
    expect(del.extensions?.code).toBe('NOT_FOUND');

    const still = await app.ok(GET_MEMORY, { id: memoryOfB.id });
    expect(still.memory?.content).toBe('B likes tea');
  });

  it('imports rows of "a" and rejects each row naming "b"', async () => {
    const { importMemories } = await app.ok(
      IMPORT_MEMORIES,
      {
        memories: [
          { apiKeyId: 'a', key: 'import-a-1', content: 'first of a' },
          { apiKeyId: 'b', key: 'import-b', content: 'smuggled into b' },
          { key: 'import-a-2', content: 'second of a, key omitted' },
        ],
      },
      tokenA,
    );
    expect(importMemories.imported).toBe(2);
    expect(importMemories.updated).toBe(0);
    expect(importMemories.rejected).toHaveLength(1);
    expect(importMemories.rejected[0]).toMatchObject({ index: 1, key: 'import-b' });
    expect(importMemories.rejected[0]?.reason).toContain('"b"');

    const ofA = await app.ok(EXPORT_MEMORIES, { apiKeyId: 'a' });
    expect(ofA.exportMemories.map((m) => m.key)).toEqual(expect.arrayContaining(['import-a-1', 'import-a-2']));
    const ofB = await app.ok(EXPORT_MEMORIES, { apiKeyId: 'b' });
    expect(ofB.exportMemories.map((m) => m.key)).not.toContain('import-b');
  });

  it('is FORBIDDEN to read or change settings and tokens', async () => {
    expect(codeOf(await asA(GET_SETTINGS))).toBe('FORBIDDEN');
    expect(codeOf(await asA(LIST_TOKENS))).toBe('FORBIDDEN');
    expect(codeOf(await asA(CREATE_TOKEN, { input: { name: 'escalate', role: 'ADMIN' } }))).toBe('FORBIDDEN');
  });
});

describe('an unbound gateway token', () => {
  let token: string;
  beforeAll(async () => {
    token = await app.mintToken();
  });

  it('acts for any API key it names', async () => {
    const one = await app.gql(CREATE_MEMORY, { input: { apiKeyId: 'u1', content: 'for u1' } }, token);
    const two = await app.gql(CREATE_MEMORY, { input: { apiKeyId: 'u2', content: 'for u2' } }, token);
    expect(one.errors).toBeUndefined();
    expect(two.errors).toBeUndefined();
    const list = await app.gql(LIST_MEMORIES, { apiKeyId: 'u2' }, token);
    expect(list.data.memories.items.map((m) => m.content)).toEqual(['for u2']);
    expect((await app.gql(GET_MEMORY, { id: one.data.createMemory.id }, token)).data.memory?.content).toBe('for u1');
  });

  it('must name an API key to create a memory (BAD_USER_INPUT)', async () => {
    const err = onlyError(await app.gql(CREATE_MEMORY, { input: { content: 'whose?' } }, token));
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(err.message).toContain('apiKeyId');
  });

  it('must name an API key to list memories (BAD_USER_INPUT)', async () => {
    const err = onlyError(await app.gql(LIST_MEMORIES, {}, token));
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(err.message).toContain('apiKeyId');
  });

  it('must name an API key to export memories (BAD_USER_INPUT)', async () => {
    expect(codeOf(await app.gql(EXPORT_MEMORIES, {}, token))).toBe('BAD_USER_INPUT');
  });

  it('rejects import rows without an API key, row by row', async () => {
    const { importMemories } = await app.ok(
      IMPORT_MEMORIES,
      { memories: [{ apiKeyId: 'u3', content: 'has a key' }, { content: 'has none' }] },
      token,
    );
    expect(importMemories.imported).toBe(1);
    expect(importMemories.rejected.map((r) => r.index)).toEqual([1]);
  });

  it('is FORBIDDEN to read the settings', async () => {
    expect(codeOf(await app.gql(GET_SETTINGS, {}, token))).toBe('FORBIDDEN');
  });

  it('is FORBIDDEN to change the settings, and they stay unchanged', async () => {
    const before = await app.ok(GET_SETTINGS);
    expect(codeOf(await app.gql(UPDATE_SETTINGS, { input: { enabled: !before.memorySettings.enabled } }, token))).toBe('FORBIDDEN');
    expect(await app.ok(GET_SETTINGS)).toEqual(before);
  });

  it('is FORBIDDEN to list access tokens', async () => {
    expect(codeOf(await app.gql(LIST_TOKENS, {}, token))).toBe('FORBIDDEN');
  });

  it('is FORBIDDEN to mint access tokens', async () => {
    expect(codeOf(await app.gql(CREATE_TOKEN, { input: { name: 'escalate', role: 'ADMIN' } }, token))).toBe('FORBIDDEN');
    const { accessTokens } = await app.ok(LIST_TOKENS);
    expect(accessTokens.map((t) => t.name)).not.toContain('escalate');
  });

  it('is FORBIDDEN to revoke access tokens, and the target keeps working', async () => {
    const victim = await mint({ name: 'victim' });
    expect(codeOf(await app.gql(REVOKE_TOKEN, { id: victim.accessToken.id }, token))).toBe('FORBIDDEN');
    expect((await app.gql(LIST_MEMORIES, { apiKeyId: 'u1' }, victim.token)).errors).toBeUndefined();
  });
});

describe('admins', () => {
  it('list memories across every API key when they name none', async () => {
    await asAdmin({ apiKeyId: 'all-1', content: 'one of all' });
    await asAdmin({ apiKeyId: 'all-2', content: 'two of all' });
    const { memories } = await app.ok(LIST_MEMORIES, { limit: 500 });
    const keys = new Set(memories.items.map((m) => m.apiKeyId));
    expect(keys).toContain('all-1');
    expect(keys).toContain('all-2');
    const { exportMemories } = await app.ok(EXPORT_MEMORIES, {});
    expect(exportMemories.map((m) => m.apiKeyId)).toEqual(expect.arrayContaining(['all-1', 'all-2']));
  });

  it('can mint an ADMIN token that can do admin things, and it is never bound to a key', async () => {
    const { token, accessToken } = await mint({ name: 'second admin', role: 'ADMIN', apiKeyId: 'ignored' });
    expect(accessToken).toMatchObject({ role: 'ADMIN', apiKeyId: null });
    expect((await app.gql(GET_SETTINGS, {}, token)).errors).toBeUndefined();
    expect((await app.gql(LIST_TOKENS, {}, token)).errors).toBeUndefined();
    const child = await app.gql(CREATE_TOKEN, { input: { name: 'minted by second admin' } }, token);
    expect(child.errors).toBeUndefined();
    const { memories } = (await app.gql(LIST_MEMORIES, {}, token)).data;
    expect(memories.totalCount).toBeGreaterThan(0);
  });

  it('cannot mint a token with an empty name (BAD_USER_INPUT)', async () => {
    for (const name of ['', '   ']) {
      const err = onlyError(await app.gql(CREATE_TOKEN, { input: { name } }));
      expect(err.extensions?.code).toBe('BAD_USER_INPUT');
      expect(err.message).toContain('name');
    }
  });
});

describe('token secrets', () => {
  /** Every row and column of the table, as the store holds them. */
  const storedTokens = () => app.database.db.selectFrom('access_tokens').selectAll().execute();

  it('stores only a SHA-256 hash: the plain token appears nowhere in the access_tokens table', async () => {
    const { token, accessToken } = await mint({ name: 'hashed', apiKeyId: 'h' });
    const rows = await storedTokens();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.replace(/^mnemo_/, ''));
    const row = rows.find((r) => r.id === accessToken.id)!;
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('does not store the configured admin token either', async () => {
    const dump = JSON.stringify(await storedTokens());
    expect(dump).not.toContain(ADMIN_TOKEN);
  });

  it('shows the secret once, when minted, and never in accessTokens', async () => {
    const { token } = await mint({ name: 'shown once' });
    expect(token).toMatch(/^mnemo_[A-Za-z0-9_-]{43}$/);
    const listed = await app.ok(AuthEveryTokenFieldDocument);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('has no field on AccessToken that could carry the secret or its hash', async () => {
    const { __type } = await app.ok(AuthAccessTokenFieldNamesDocument);
    const fields = __type!.fields!.map((f) => f.name).sort();
    expect(fields).toEqual(['apiKeyId', 'createdAt', 'id', 'lastUsedAt', 'mayForgetKey', 'name', 'revokedAt', 'role', 'tokenStart']);
  });

  it('keeps the secret\'s first 4 characters after "mnemo_" to tell tokens apart, and nothing more of it', async () => {
    const { token, accessToken } = await mint({ name: 'told apart' });
    const { accessTokens } = await app.ok(AuthTokenStartsDocument);
    const start = accessTokens.find((t) => t.id === accessToken.id)!.tokenStart;
    expect(start).toBe(token.slice(0, 10));
    const dump = JSON.stringify(await storedTokens());
    expect(dump).not.toContain(token.slice(0, 11));
  });
});

describe('viewer', () => {
  it('tells an admin token it is an admin', async () => {
    expect((await app.ok(VIEWER)).viewer).toEqual({ role: 'ADMIN', apiKeyId: null });
  });

  it('tells a gateway token its role and bound key, so the admin app can refuse it at sign-in', async () => {
    const bound = (await mint({ name: 'viewer bound', apiKeyId: 'vk' })).token;
    const unbound = (await mint({ name: 'viewer unbound' })).token;
    expect((await app.ok(VIEWER, {}, bound)).viewer).toEqual({ role: 'GATEWAY', apiKeyId: 'vk' });
    expect((await app.ok(VIEWER, {}, unbound)).viewer).toEqual({ role: 'GATEWAY', apiKeyId: null });
  });

  it('answers UNAUTHENTICATED for an unknown token', async () => {
    expect(codeOf(await app.gql(VIEWER, {}, 'mnemo_unknown'))).toBe('UNAUTHENTICATED');
  });
});

describe('error masking', () => {
  it('replaces an unexpected error by "Unexpected error." with no stack, SQL or internal message', async () => {
    vi.spyOn(app.services.settings, 'get').mockRejectedValueOnce(
      new Error('SQLITE_CORRUPT: select name, value from "settings" in /var/lib/mnemo/mnemo.db'),
    );
    const res = await raw('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ query: GET_SETTINGS }),
    });
    const body = JSON.parse(res.text);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].message).toBe('Unexpected error.');
    expect(body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(body.errors[0].path).toEqual(['memorySettings']);
    for (const leak of ['SQLITE', 'select', 'mnemo.db', 'stack', 'at ', 'originalError']) expect(res.text).not.toContain(leak);
  });

  it('keeps answering normally after an unexpected error', async () => {
    vi.spyOn(app.services.settings, 'get').mockRejectedValueOnce(new Error('boom'));
    expect(codeOf(await app.gql(GET_SETTINGS))).toBe('INTERNAL_SERVER_ERROR');
    expect((await app.gql(GET_SETTINGS)).errors).toBeUndefined();
  });
});

describe('query limits', () => {
  const probe = (key: string) => `createMemory(input: { apiKeyId: "limits", key: "${key}", content: "probe" }) { id }`;
  const exists = async (key: string) => (await app.ok(EXPORT_MEMORIES, { apiKeyId: 'limits' })).exportMemories.some((m) => m.key === key);

  /** Nests a selection in inline fragments, each of which the depth limit counts as a level. */
  const nested = (levels: number, inner: string) => {
    let doc = inner;
    for (let i = 0; i < levels; i++) doc = `... on Mutation { ${doc} }`;
    return `mutation { ${doc} }`;
  };

  it('runs a document within the depth limit', async () => {
    const res = await app.gqlRaw(nested(8, probe('depth-ok')));
    expect(res.errors).toBeUndefined();
    expect(await exists('depth-ok')).toBe(true);
  });

  it('refuses a document deeper than 10 levels without executing it', async () => {
    const res = await app.gqlRaw(nested(12, probe('too-deep')));
    expect(res.data ?? null).toBeNull();
    expect(onlyError(res).message).toMatch(/depth limit of 10 exceeded/);
    expect(await exists('too-deep')).toBe(false);
  });

  it('refuses a document with more than 20 aliases without executing any of them', async () => {
    const fields = Array.from({ length: 21 }, (_, i) => `m${i}: ${probe(`alias-${i}`)}`).join('\n');
    const res = await app.gqlRaw(`mutation { ${fields} }`);
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.message).toMatch(/Aliases limit of 20 exceeded/);
    expect(await exists('alias-0')).toBe(false);
  });

  it('refuses a document of more than 2000 tokens', async () => {
    const res = await app.gqlRaw(`mutation { ${probe('many-tokens')} ${' __typename'.repeat(2000)} }`);
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.message).toMatch(/Token limit of 2000 exceeded/);
    expect(await exists('many-tokens')).toBe(false);
  });

  it('refuses a document that costs too much, even within the depth, alias and token limits', async () => {
    const items = `items { id apiKeyId sessionId type key content metadata tokens createdAt updatedAt expiresAt accessCount status }`;
    let doc = Array.from({ length: 10 }, (_, i) => `p${i}: memories(apiKeyId: "limits") { ${items} }`).join('\n');
    for (let i = 0; i < 7; i++) doc = `... on Query { ${doc} }`;
    const res = await app.gqlRaw(`{ ${doc} }`);
    expect(res.data ?? null).toBeNull();
    expect(onlyError(res).message).toMatch(/Cost limit of 5000 exceeded/);
  });
});

describe('cross-site request forgery', () => {
  const query = encodeURIComponent('{ memorySettings { enabled } }');

  it('refuses a GET with a query string and no preflight-forcing header', async () => {
    const res = await raw(`/graphql?query=${query}`);
    expect([401, 403]).toContain(res.status);
    expect(res.text).not.toContain('"memorySettings"');
  });

  it('answers the same GET when it carries the Authorization header, which browsers cannot add cross-site', async () => {
    const res = await raw(`/graphql?query=${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.memorySettings).toHaveProperty('enabled');
  });

  it('refuses a form-style POST (application/x-www-form-urlencoded)', async () => {
    const res = await raw('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent('mutation { clearMemories(apiKeyId: "limits") }')}`,
    });
    expect(res.status).toBe(403);
    expect(res.text).not.toContain('"clearMemories"');
  });

  it('refuses a text/plain POST', async () => {
    const res = await raw('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ memorySettings { enabled } }' }),
    });
    expect(res.status).toBe(403);
  });

  it('never runs a mutation sent with GET', async () => {
    await asAdmin({ apiKeyId: 'csrf-get', content: 'survives' });
    const mutation = encodeURIComponent('mutation { clearMemories(apiKeyId: "csrf-get") }');
    const res = await raw(`/graphql?query=${mutation}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(405);
    expect((await app.ok(EXPORT_MEMORIES, { apiKeyId: 'csrf-get' })).exportMemories).toHaveLength(1);
  });
});
