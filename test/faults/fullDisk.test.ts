import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { FaultsFullDiskHealthDocument as HEALTH } from '../generated/graphql.ts';
import { graphqlAt, okAt } from '../helpers/graphqlHttp.ts';
import { callError, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { spawnMnemo } from '../helpers/mnemoProcess.ts';
import { CREATE_MEMORY, EXTRACT_FACTS, IMPORT_MEMORIES, MEMORY_STATS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { mountSmallDisk } from '../helpers/smallDisk.ts';
import { ADMIN_TOKEN, onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

const disk = mountSmallDisk('test/faults/fullDisk.test.ts');
/** The served folder's own: the suite above fills and frees its disk on a schedule of its own. */
const serveDisk = mountSmallDisk('test/faults/fullDisk.test.ts, mnemo serve');
// Here rather than in each suite's hooks, which do not run when a filter skips every test of the suite.
afterAll(() => {
  disk?.remove();
  serveDisk?.remove();
});

describe.skipIf(!disk)('a full disk', () => {
  let app: TestApp;
  const create = (content: string) => app.gql(CREATE_MEMORY, { input: { apiKeyId: 'full', content } });
  let acknowledged = 0;
  /** Not used before the disk is full: its first request is due to write its last-used time. */
  let gatewayToken: string;

  beforeAll(async () => {
    app = await startTestApp({ dir: disk!.dir });
    gatewayToken = await app.mintToken({ apiKeyId: 'full' });
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    for (; acknowledged < 5; acknowledged++) await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'full', content: `kept ${acknowledged}` } });
    // Everything but 64 KiB goes to a file the test can delete; the writes below take the rest.
    disk!.fill(64 * 1024);
    for (let i = 0; i < 500; i++) {
      const res = await create(`filler ${i} ${'lorem ipsum dolor sit amet '.repeat(40)}`);
      if (res.errors) break;
      acknowledged++;
    }
  });
  afterAll(async () => {
    disk!.free();
    await app?.close();
  });

  it('refuses a write with STORAGE_FULL and says the disk is full', async () => {
    const error = onlyError(await create('one more thing to remember'));
    expect(error.extensions?.code).toBe('STORAGE_FULL');
    expect(error.message).toContain('its disk is full');
  });

  it("answers a gateway's read though the token's last-used time cannot be written", async () => {
    const { memories } = await app.ok(MEMORY_STATS, { apiKeyId: 'full' }, gatewayToken);
    expect(memories.stats.totalEntries).toBe(acknowledged);
  });

  it('refuses a memory_add over MCP with STORAGE_FULL', async () => {
    const client = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
    try {
      const error = await callError(client, 'memory_add', {
        apiKeyId: 'full',
        type: 'factual',
        key: 'mcp',
        content: 'one more thing to remember',
      });
      expect(error).toMatchObject({ code: 'STORAGE_FULL', message: expect.stringContaining('its disk is full') });
    } finally {
      await client.close();
    }
  });

  it('refuses a whole import with STORAGE_FULL rather than reporting every row as bad', async () => {
    const memories = Array.from({ length: 50 }, (_, i) => ({ apiKeyId: 'full', key: `import-${i}`, content: `imported ${i}` }));
    expect(onlyError(await app.gql(IMPORT_MEMORIES, { memories })).extensions?.code).toBe('STORAGE_FULL');
  });

  it('says in extractFacts why the facts were not stored', async () => {
    const { extractFacts } = await app.ok(EXTRACT_FACTS, { input: { apiKeyId: 'full', role: 'USER', text: 'I prefer green tea.' } });
    expect(extractFacts.error).toContain('its disk is full');
  });

  it('fails memoryHealth with STORAGE_FULL', async () => {
    const { memoryHealth } = await app.ok(HEALTH);
    expect(memoryHealth).toMatchObject({ ok: false, errorCode: 'STORAGE_FULL' });
    expect(memoryHealth.error).toMatch(/disk/);
    expect(memoryHealth.checks.some((c) => ['COMMIT', 'DISK'].includes(c.name) && !c.ok)).toBe(true);
  });

  it('once space is freed: healthy, writes land, and every memory acknowledged before is there', async () => {
    disk!.free();
    expect((await app.ok(HEALTH)).memoryHealth).toMatchObject({ ok: true, errorCode: null, error: null });
    expect((await create('written after the disk was freed')).errors).toBeUndefined();
    const { memories } = await app.ok(MEMORY_STATS, { apiKeyId: 'full' });
    expect(memories.stats.totalEntries).toBe(acknowledged + 1);
  });
});

describe.skipIf(!serveDisk)('mnemo serve on a full disk', () => {
  // A process of its own, started from the sources unless built: its start alone can take half a minute on a busy machine.
  it('drains and exits 0 on SIGTERM, saying what it could not write', async () => {
    const token = 'full-disk-admin-token-0123456789';
    const dataDir = path.join(serveDisk!.dir, 'data');
    const mnemo = spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], {
      HOME: serveDisk!.dir,
      MNEMO_DATA_DIR: dataDir,
      MNEMO_ADMIN_TOKEN: token,
    });
    // A server left running would keep the disk busy, and it could not be unmounted.
    onTestFinished(() => void mnemo.child.kill('SIGKILL'));
    const url = await mnemo.listening();
    await okAt(url, UPDATE_SETTINGS, { input: { enabled: true } }, token);
    serveDisk!.fill(64 * 1024);
    for (let i = 0; ; i++) {
      const res = await graphqlAt(
        url,
        CREATE_MEMORY,
        { input: { apiKeyId: 'full', content: `filler ${i} ${'lorem ipsum '.repeat(400)}` } },
        token,
      );
      if (res.errors) {
        expect(res.errors[0]!.extensions?.code).toBe('STORAGE_FULL');
        break;
      }
    }
    mnemo.child.kill('SIGTERM');
    expect(await mnemo.exited).toBe(0);
    expect(mnemo.out.stdout).toContain('the write-ahead log could not be checkpointed; the next start reads it');
    expect(mnemo.out.stdout).toContain('"msg":"stopped"');
  }, 120_000);
});
