import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuditEntryInput, purgeAudit, recordAudit } from '../../server/audit/audit.service.ts';
import { runCli } from '../../server/cli.ts';
import {
  AuditLogDocument as AUDIT_LOG,
  type AuditLogQuery,
  type AuditLogQueryVariables,
  AuditBackupDocument as BACKUP,
  AuditCancelReindexDocument as CANCEL_REINDEX,
  AuditForgetApiKeyDocument as FORGET_API_KEY,
} from '../generated/graphql.ts';
import { callError, httpTransport, mcpClient } from '../helpers/mcp.ts';
import {
  CLEAR_MEMORIES,
  CREATE_TOKEN,
  EXPORT_MEMORIES,
  IMPORT_MEMORIES,
  UPSERT_PROVIDER as PROVIDER,
  UPDATE_QDRANT as QDRANT,
  RESTORE_SUMMARY,
  REVOKE_TOKEN,
  START_REINDEX,
  SUMMARIZE,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { ADMIN_TOKEN, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';
import { topicEngine, topicModelDir } from '../helpers/topicModel.ts';
import { onPostgres, startVectorApp } from '../helpers/vectorStore.ts';

type Entry = AuditLogQuery['auditLog']['items'][number];

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
async function started() {
  const app = await startTestApp();
  cleanup.push(() => app.close());
  return app;
}

async function entries(app: TestApp, filter: AuditLogQueryVariables = {}) {
  return (await app.ok(AUDIT_LOG, filter)).auditLog.items;
}

/** An admin token of its own name, so the entries it causes have an actor to check. */
async function namedAdmin(app: TestApp, name = 'ops-alice') {
  const { createAccessToken } = await app.ok(CREATE_TOKEN, { input: { name, role: 'ADMIN' } });
  return { token: createAccessToken.token, id: createAccessToken.accessToken.id };
}

describe('the audit log', () => {
  it('records a settings change field by field, with the actor, the request id and the outcome', async () => {
    const app = await started();
    const alice = await namedAdmin(app);
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}`, 'x-request-id': 'change-42' },
      body: JSON.stringify({ query: String(UPDATE_SETTINGS), variables: { input: { enabled: true, maxTokens: 900, retentionDays: 30 } } }),
    });
    expect(res.status).toBe(200);
    const [entry] = await entries(app, { action: 'SETTINGS_UPDATE' });
    expect(entry).toMatchObject({
      actorId: alice.id,
      actorName: 'ops-alice',
      requestId: 'change-42',
      action: 'SETTINGS_UPDATE',
      outcome: 'OK',
      changes: [
        { field: 'enabled', before: 'false', after: 'true', secret: null },
        { field: 'maxTokens', before: '2000', after: '900', secret: null },
      ],
    });
  });

  it('shows a secret only as set, changed or removed, and never stores it', async () => {
    const app = await started();
    const provider = (apiKey?: string) => app.ok(PROVIDER, { input: { id: 'p1', baseUrl: 'http://127.0.0.1:9/v1', apiKey, models: [] } });
    await provider('provider-key-one');
    await provider('provider-key-two');
    await provider('provider-key-two');
    await provider('');
    await app.ok(QDRANT, { input: { url: 'http://user:url-password@127.0.0.1:9', apiKey: 'qdrant-key-one' } });
    await app.ok(QDRANT, { input: { apiKey: '' } });
    const secretChanges = (await entries(app)).reverse().map((e) => [e.action, e.changes.filter((c) => c.secret).map((c) => c.secret)]);
    expect(secretChanges).toEqual([
      ['PROVIDER_UPSERT', ['SET']],
      ['PROVIDER_UPSERT', ['CHANGED']],
      ['PROVIDER_UPSERT', []],
      ['PROVIDER_UPSERT', ['REMOVED']],
      ['QDRANT_SETTINGS_UPDATE', ['SET']],
      ['QDRANT_SETTINGS_UPDATE', ['REMOVED']],
    ]);
    const [, , , , qdrant] = (await entries(app)).reverse();
    expect(qdrant!.changes.find((c) => c.field === 'url')).toMatchObject({ before: 'null', after: '"http://[redacted]@127.0.0.1:9"' });
    const stored = JSON.stringify(await app.database.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of ['provider-key-one', 'provider-key-two', 'qdrant-key-one', 'url-password']) expect(stored).not.toContain(secret);
  });

  it('records token mint and revoke, import, export, clear, summarize and restore, reindex start and cancel, backup', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-audit-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    // A model to reindex with, and somewhere to put the vectors (a Qdrant double on PostgreSQL): reindex refuses to
    // start without them.
    const app = await startVectorApp({ backupDir: dir, engine: topicEngine(topicModelDir()) });
    cleanup.push(() => app.close());
    const { createAccessToken } = await app.ok(CREATE_TOKEN, { input: { name: 'gw-eu', apiKeyId: 'k1' } });
    await app.ok(REVOKE_TOKEN, { id: createAccessToken.accessToken.id });
    // Memories of 60 days ago, inside a retention of 365 days, for summarize to compact.
    await app.ok(UPDATE_SETTINGS, { input: { retentionDays: 365 } });
    const old = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const rows = Array.from({ length: 10 }, (_, i) => ({ apiKeyId: 'k1', content: `Alice likes item ${i}`, createdAt: old }));
    await app.ok(IMPORT_MEMORIES, { memories: rows });
    await app.ok(EXPORT_MEMORIES, { apiKeyId: 'k1', includeExpired: true });
    const { summarize } = await app.ok(SUMMARIZE, { apiKeyId: 'k1', olderThanDays: 30, dryRun: false });
    const summaryId = summarize.summaries[0]!.id;
    await app.ok(RESTORE_SUMMARY, { summaryId });
    await app.ok(CLEAR_MEMORIES, { apiKeyId: 'k1' });
    const { reindex } = await app.ok(START_REINDEX);
    await app.services.reindex.idle();
    await app.gql(CANCEL_REINDEX, { jobId: reindex.id });
    // backupDatabase copies a SQLite file; on PostgreSQL it is refused (pg_dump backs PostgreSQL up), and the refusal is
    // what the log records.
    const backup = await app.gql(BACKUP);
    if (onPostgres) expect(onlyError(backup).extensions?.code).toBe('BAD_USER_INPUT');
    else expect(backup.errors).toBeUndefined();

    // Settings changes are the setup (retention; on PostgreSQL the Qdrant double), not what this test is about.
    const log = (await entries(app)).reverse().filter((e) => !['SETTINGS_UPDATE', 'QDRANT_SETTINGS_UPDATE'].includes(e.action));
    expect(log.map((e) => [e.action, e.apiKeyId, e.target])).toEqual([
      ['TOKEN_CREATE', 'k1', { name: 'gw-eu', role: 'gateway', tokenId: createAccessToken.accessToken.id }],
      ['TOKEN_REVOKE', 'k1', { tokenId: createAccessToken.accessToken.id, name: 'gw-eu' }],
      ['MEMORIES_IMPORT', 'k1', { rows: 10, apiKeys: 1, imported: 10, updated: 0, merged: 0, rejected: 0 }],
      ['MEMORIES_EXPORT', 'k1', { count: 10 }],
      ['MEMORIES_SUMMARIZE', 'k1', { archived: 10, summaries: [summaryId], tokensSaved: expect.any(Number) }],
      ['SUMMARY_RESTORE', 'k1', { summaryId, restored: 10 }],
      ['MEMORIES_CLEAR', 'k1', { types: null, createdBefore: null, deleted: 10 }],
      ['REINDEX_START', null, { force: false, jobId: reindex.id }],
      ['REINDEX_CANCEL', null, { jobId: reindex.id }],
      onPostgres
        ? ['DATABASE_BACKUP', null, null]
        : ['DATABASE_BACKUP', null, { file: expect.stringContaining(dir), bytes: expect.any(Number), migration: expect.any(String) }],
    ]);
    expect(log.at(-1)!.outcome).toBe(onPostgres ? 'BAD_USER_INPUT' : 'OK');
    expect(new Set(log.map((e) => e.actorId))).toEqual(new Set(['env']));
    expect(log.every((e) => e.requestId)).toBe(true);
  });

  it('records a refused action with the error code it failed with', async () => {
    const app = await started();
    await app.gql(UPDATE_SETTINGS, { input: { maxTokens: -1 } });
    await app.gql(REVOKE_TOKEN, { id: 'no-such-token' });
    expect((await entries(app)).map((e) => [e.action, e.outcome, e.changes])).toEqual([
      ['TOKEN_REVOKE', 'NOT_FOUND', []],
      ['SETTINGS_UPDATE', 'BAD_USER_INPUT', []],
    ]);
  });

  it('records what a gateway token does to its own key, and a dry run not at all', async () => {
    const app = await started();
    const gateway = await app.mintToken({ apiKeyId: 'k1' });
    await app.ok(CLEAR_MEMORIES, { apiKeyId: 'k1' }, gateway);
    await app.ok(SUMMARIZE, { apiKeyId: 'k1' }, gateway);
    const [clear] = await entries(app, { action: 'MEMORIES_CLEAR' });
    expect(clear).toMatchObject({ actorName: 'test GATEWAY k1', apiKeyId: 'k1', target: { deleted: 0 } });
    expect(await entries(app, { action: 'MEMORIES_SUMMARIZE' })).toEqual([]);
  });
});

describe('the auditLog query', () => {
  /** Entries at known times, from known actors, as the CLI and jobs write them. */
  async function seeded() {
    const app = await started();
    const at = (day: number) => Date.parse('2026-11-01T00:00:00Z') + day * 86_400_000;
    const write = (day: number, entry: AuditEntryInput) => recordAudit({ db: app.services.db, now: () => at(day) }, entry);
    await write(1, { actor: { id: 'cli', name: 'cli' }, action: 'TOKEN_CREATE' });
    await write(2, { actor: { id: 't-1', name: 'alice' }, action: 'MEMORIES_CLEAR', apiKeyId: 'k1' });
    await write(3, { actor: { id: 't-2', name: 'bob' }, action: 'MEMORIES_CLEAR', apiKeyId: 'k2' });
    await write(4, { actor: { id: 't-1', name: 'alice' }, action: 'MEMORIES_EXPORT', apiKeyId: 'k1' });
    return app;
  }
  const actions = (items: Entry[]) => items.map((e) => `${e.action} ${e.actorName} ${e.apiKeyId ?? '-'}`);

  it('lists newest first and filters by action, actor, API key and time range', async () => {
    const app = await seeded();
    expect(actions(await entries(app))).toEqual([
      'MEMORIES_EXPORT alice k1',
      'MEMORIES_CLEAR bob k2',
      'MEMORIES_CLEAR alice k1',
      'TOKEN_CREATE cli -',
    ]);
    expect(actions(await entries(app, { action: 'MEMORIES_CLEAR' }))).toEqual(['MEMORIES_CLEAR bob k2', 'MEMORIES_CLEAR alice k1']);
    expect(actions(await entries(app, { actor: 't-1' }))).toEqual(['MEMORIES_EXPORT alice k1', 'MEMORIES_CLEAR alice k1']);
    expect(actions(await entries(app, { actor: 'cli' }))).toEqual(['TOKEN_CREATE cli -']);
    expect(actions(await entries(app, { apiKeyId: 'k2' }))).toEqual(['MEMORIES_CLEAR bob k2']);
    expect(actions(await entries(app, { since: '2026-11-04T00:00:00Z', until: '2026-11-06T00:00:00Z' }))).toEqual([
      'MEMORIES_EXPORT alice k1',
      'MEMORIES_CLEAR bob k2',
    ]);
  });

  it('pages with a total count', async () => {
    const app = await seeded();
    const first = (await app.ok(AUDIT_LOG, { limit: 3 })).auditLog;
    const second = (await app.ok(AUDIT_LOG, { limit: 3, offset: 3 })).auditLog;
    expect([first.totalCount, first.hasMore, first.items.length]).toEqual([4, true, 3]);
    expect([second.hasMore, actions(second.items)]).toEqual([false, ['TOKEN_CREATE cli -']]);
  });

  it('is for admins only, and refuses a page size out of range', async () => {
    const app = await seeded();
    expect(onlyError(await app.gql(AUDIT_LOG, {}, await app.mintToken())).extensions?.code).toBe('FORBIDDEN');
    expect(onlyError(await app.gql(AUDIT_LOG, { limit: 501 })).extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('the audit log and erasure', () => {
  it("names a forgotten key by a pseudonym in its earlier entries and in the erasure's own, so the key leaves the log", async () => {
    const app = await started();
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'key-gone', key: 'k', content: 'a fact to forget' }] });
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'key-kept', key: 'k', content: 'a fact to keep' }] });
    const { forgetApiKey } = await app.ok(FORGET_API_KEY, { apiKeyId: 'key-gone' });
    expect(forgetApiKey.auditApiKeyId).toMatch(/^forgotten:[0-9a-f-]{36}$/);
    const all = await entries(app);
    expect(all.map((e) => [e.action, e.apiKeyId])).toEqual([
      ['API_KEY_FORGET', forgetApiKey.auditApiKeyId],
      ['MEMORIES_IMPORT', 'key-kept'],
      ['MEMORIES_IMPORT', forgetApiKey.auditApiKeyId],
    ]);
    expect(all[0]!.target).toMatchObject({ memories: 1 });
    expect(JSON.stringify(all)).not.toContain('key-gone');
  });

  it('records each purge that deleted something, by the system or the CLI, with counts only', async () => {
    const app = await started();
    const longAgo = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'k1', key: 'old', content: 'stale', createdAt: longAgo }] });
    await app.services.purge.pass();
    expect((await entries(app, { action: 'MEMORIES_PURGE' })).map((e) => [e.actorId, e.target])).toEqual([
      ['system', { expired: 0, outOfRetention: 1, batches: 1 }],
    ]);
  });

  it('records a clear done through MCP as the same action as through GraphQL', async () => {
    const app = await started();
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'k1', key: 'a', content: 'one' }] });
    const agent = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
    cleanup.push(() => agent.close());
    await agent.callTool({ name: 'memory_clear', arguments: { apiKeyId: 'k1' } });
    const [entry] = await entries(app, { action: 'MEMORIES_CLEAR' });
    expect(entry).toMatchObject({ actorId: 'env', apiKeyId: 'k1', outcome: 'OK', target: { deleted: 1, types: null } });
    expect(entry!.requestId).toMatch(/\S/);
  });
});

describe("a token bound to one key, refused another key's memories", () => {
  /** A gateway token bound to k1, allowed to forget k1: what it may not do to k2 is the point. */
  async function boundToK1(app: TestApp) {
    await app.ok(IMPORT_MEMORIES, { memories: [{ apiKeyId: 'k2', key: 'a', content: 'not theirs' }] });
    const { createAccessToken } = await app.ok(CREATE_TOKEN, {
      input: { name: 'gateway-k1', role: 'GATEWAY', apiKeyId: 'k1', mayForgetKey: true },
    });
    return { token: createAccessToken.token, id: createAccessToken.accessToken.id };
  }
  const refusal = (id: string, action: string) => ({ actorId: id, actorName: 'gateway-k1', action, apiKeyId: 'k2', outcome: 'FORBIDDEN' });

  it('records a refused clearMemories with the token, the key it named and FORBIDDEN', async () => {
    const app = await started();
    const { token, id } = await boundToK1(app);
    expect(onlyError(await app.gql(CLEAR_MEMORIES, { apiKeyId: 'k2' }, token)).extensions?.code).toBe('FORBIDDEN');
    expect(await entries(app, { action: 'MEMORIES_CLEAR' })).toEqual([expect.objectContaining(refusal(id, 'MEMORIES_CLEAR'))]);
  });

  it('records a refused forgetApiKey with the token, the key it named and FORBIDDEN', async () => {
    const app = await started();
    const { token, id } = await boundToK1(app);
    expect(onlyError(await app.gql(FORGET_API_KEY, { apiKeyId: 'k2' }, token)).extensions?.code).toBe('FORBIDDEN');
    expect(await entries(app, { action: 'API_KEY_FORGET' })).toEqual([expect.objectContaining(refusal(id, 'API_KEY_FORGET'))]);
  });

  it('records a refused memory_clear over MCP as the same refusal as through GraphQL', async () => {
    const app = await started();
    const { token, id } = await boundToK1(app);
    const agent = await mcpClient(httpTransport(app.url, token));
    cleanup.push(() => agent.close());
    expect(await callError(agent, 'memory_clear', { apiKeyId: 'k2' })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await entries(app, { action: 'MEMORIES_CLEAR' })).toEqual([expect.objectContaining(refusal(id, 'MEMORIES_CLEAR'))]);
  });
});

describe('the audit table', () => {
  it('refuses every update, and deleting an entry younger than 30 days', async () => {
    const app = await started();
    await recordAudit(app.services, { actor: { id: 'cli', name: 'cli' }, action: 'TOKEN_CREATE' });
    const { db } = app.database;
    await expect(db.updateTable('audit_log').set({ actor_name: 'someone else' }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/younger than 30 days/);
    expect(await db.selectFrom('audit_log').select('actor_name').execute()).toEqual([{ actor_name: 'cli' }]);
  });

  it("allows one update: an API key's id giving way to a 'forgotten:' pseudonym", async () => {
    const app = await started();
    await recordAudit(app.services, { actor: { id: 'cli', name: 'cli' }, action: 'MEMORIES_CLEAR', apiKeyId: 'key-x' });
    const { db } = app.database;
    const rename = (apiKeyId: string | null) => db.updateTable('audit_log').set({ api_key_id: apiKeyId }).execute();
    await expect(rename('key-y')).rejects.toThrow(/append-only/);
    await expect(rename(null)).rejects.toThrow(/append-only/);
    await rename('forgotten:1');
    expect(await db.selectFrom('audit_log').select('api_key_id').execute()).toEqual([{ api_key_id: 'forgotten:1' }]);
  });

  it('keeps entries for auditRetentionDays (default 365), deletes older ones and records that it did', async () => {
    const app = await started();
    const daysAgo = (days: number) => ({ db: app.services.db, now: () => Date.now() - days * 86_400_000 });
    await recordAudit(daysAgo(400), { actor: { id: 'cli', name: 'cli' }, action: 'TOKEN_CREATE' });
    await recordAudit(daysAgo(100), { actor: { id: 'cli', name: 'cli' }, action: 'TOKEN_REVOKE' });
    expect(await purgeAudit(app.services)).toBe(1);
    expect(onlyError(await app.gql(UPDATE_SETTINGS, { input: { auditRetentionDays: 29 } })).message).toMatch(/between 30 and 3650/);
    await app.ok(UPDATE_SETTINGS, { input: { auditRetentionDays: 90 } });
    expect(await purgeAudit(app.services)).toBe(1);
    const log = await entries(app);
    expect(log.map((e) => e.action)).toEqual(['AUDIT_PURGE', 'SETTINGS_UPDATE', 'SETTINGS_UPDATE', 'AUDIT_PURGE']);
    expect(log[0]).toMatchObject({ actorId: 'system', target: { deleted: 1, retentionDays: 90 } });
  });
});

describe('mnemo audit export', () => {
  it('writes the log as JSON lines, oldest first; what the CLI does is recorded with the actor cli', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mnemo-audit-cli-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const run = async (...args: string[]) => {
      const out = { stdout: '', stderr: '' };
      const code = await runCli(args, {
        env: { MNEMO_DATA_DIR: dataDir, MNEMO_ADMIN_TOKEN: ADMIN_TOKEN },
        stdout: { write: (text: string) => (out.stdout += text) },
        stderr: { write: (text: string) => (out.stderr += text) },
        stopRequested: () => new Promise(() => {}),
      });
      return { code, ...out };
    };
    await run('token', 'create', '--name', 'ci', '--api-key', 'k1', '--create');
    const id = (await run('token', 'list')).stdout.split('\t')[0]!;
    await run('token', 'revoke', id);
    expect((await run('backup', path.join(dataDir, 'copy.db'))).code).toBe(0);

    const exported = await run('audit', 'export');
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('exported 3 audit entries');
    const lines = exported.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.action, l.actor, l.apiKeyId, l.outcome])).toEqual([
      ['TOKEN_CREATE', { id: 'cli', name: 'cli' }, 'k1', 'OK'],
      ['TOKEN_REVOKE', { id: 'cli', name: 'cli' }, 'k1', 'OK'],
      ['DATABASE_BACKUP', { id: 'cli', name: 'cli' }, null, 'OK'],
    ]);
    expect(lines[0]).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      actor: { id: 'cli', name: 'cli' },
      requestId: null,
      action: 'TOKEN_CREATE',
      apiKeyId: 'k1',
      target: { tokenId: id, name: 'ci', role: 'gateway' },
      changes: [],
      outcome: 'OK',
    });
    expect((await run('audit', 'export', '--action', 'token_revoke')).stdout.trimEnd().split('\n')).toHaveLength(1);
    expect((await run('audit', 'export', '--since', 'yesterday')).code).toBe(64);
  });
});
