import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOMBSTONES_KEPT } from '../../server/memory/tombstone.repository.ts';
import { recordDeletions } from '../../server/memory/tombstones.ts';
import { httpTransport, mcpClient } from '../helpers/mcp.ts';
import { CLEAR_MEMORIES, CREATE_MEMORY, CREATE_TOKEN, DELETE_MEMORY, IMPORT_MEMORIES } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

// A deleted memory leaves a tombstone: which memory, of which key and session, its key's digest, when and by whom or
// what. Which path deleted it is the point of each test here; that no byte of its text is kept is erasure.test.ts's.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
const key = () => `tomb-${randomUUID().slice(0, 8)}`;
const create = (apiKeyId: string, k: string, extra: { expiresAt?: string; sessionId?: string } = {}) =>
  app.ok(CREATE_MEMORY, { input: { apiKeyId, key: k, content: `Fact ${k}`, ...extra } }).then((d) => d.createMemory);
const tombstonesOf = (apiKeyId: string) =>
  app.database.db
    .selectFrom('tombstones')
    .select(['memory_id', 'session_id', 'deleted_by'])
    .where('api_key_id', '=', apiKeyId)
    .orderBy('id')
    .execute();
const tokenOf = async (apiKeyId: string) => {
  const { createAccessToken } = await app.ok(CREATE_TOKEN, { input: { name: `gateway ${apiKeyId}`, role: 'GATEWAY', apiKeyId } });
  return { token: createAccessToken.token, id: createAccessToken.accessToken.id };
};

describe('tombstones', () => {
  it('name the token that deleted a memory, and the session it was in', async () => {
    const k = key();
    const memory = await create(k, 'home', { sessionId: 'chat-9' });
    const gateway = await tokenOf(k);
    await app.ok(DELETE_MEMORY, { id: memory.id }, gateway.token);
    expect(await tombstonesOf(k)).toEqual([{ memory_id: memory.id, session_id: 'chat-9', deleted_by: gateway.id }]);
  });

  it('are left by a delete through MCP as through GraphQL', async () => {
    const k = key();
    const memory = await create(k, 'pet');
    const gateway = await tokenOf(k);
    const client = await mcpClient(httpTransport(app.url, gateway.token));
    try {
      await client.callTool({ name: 'memory_delete', arguments: { id: memory.id } });
    } finally {
      await client.close();
    }
    expect(await tombstonesOf(k)).toEqual([{ memory_id: memory.id, session_id: null, deleted_by: gateway.id }]);
  });

  it('are left by a clear, one per memory it deleted', async () => {
    const k = key();
    const a = await create(k, 'a');
    const b = await create(k, 'b');
    expect((await app.ok(CLEAR_MEMORIES, { apiKeyId: k })).clearMemories).toBe(2);
    expect((await tombstonesOf(k)).map((t) => [t.memory_id, t.deleted_by]).sort()).toEqual(
      [
        [a.id, 'admin'],
        [b.id, 'admin'],
      ].sort(),
    );
  });

  it("say 'purge' for what expired and 'retention' for what left the retention window", async () => {
    const k = key();
    const expired = await create(k, 'coupon', { expiresAt: new Date(Date.now() - 10 * DAY).toISOString() });
    await app.ok(IMPORT_MEMORIES, {
      memories: [{ apiKeyId: k, key: 'old-job', content: 'Worked at Globex', createdAt: new Date(Date.now() - 90 * DAY).toISOString() }],
    });
    await app.services.purge.pass();
    const byWhat = Object.fromEntries((await tombstonesOf(k)).map((t) => [t.deleted_by, t.memory_id]));
    expect(Object.keys(byWhat).sort()).toEqual(['purge', 'retention']);
    expect(byWhat.purge).toBe(expired.id);
  });

  it(`are kept for the newest ${TOMBSTONES_KEPT.toLocaleString('en')} of a key, and not capped across keys`, async () => {
    const k = key();
    const other = key();
    await create(other, 'kept');
    await app.ok(CLEAR_MEMORIES, { apiKeyId: other });
    const deleted = Array.from({ length: TOMBSTONES_KEPT + 5 }, (_, i) => ({ id: `m${i}`, api_key_id: k, session_id: null, key: `k${i}` }));
    await recordDeletions(app.database.db, deleted, 'admin', Date.now());
    const kept = await tombstonesOf(k);
    expect(kept).toHaveLength(TOMBSTONES_KEPT);
    expect(kept[0]!.memory_id).toBe('m5');
    expect(await tombstonesOf(other)).toHaveLength(1);
  });
});
