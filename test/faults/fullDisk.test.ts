import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultsFullDiskHealthDocument as HEALTH } from '../generated/graphql.ts';
import { CREATE_MEMORY, EXTRACT_FACTS, IMPORT_MEMORIES, MEMORY_STATS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { onlyError, startTestApp, type TestApp } from '../helpers/testApp.ts';

/** A 4 MiB tmpfs of its own: a disk that fills up in a second. Mounting needs root on Linux; elsewhere this is skipped. */
const disk = mkdtempSync(path.join(tmpdir(), 'mnemo-full-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk], { stdio: 'pipe' });
  mounted = true;
} catch (error) {
  rmSync(disk, { recursive: true, force: true });
  console.warn(
    `test/faults/fullDisk.test.ts skipped: cannot mount a small tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}); run the tests as root on Linux to include it`,
  );
}

describe.skipIf(!mounted)('a full disk', () => {
  let app: TestApp;
  const ballast = path.join(disk, 'ballast');
  const free = () => {
    const s = statfsSync(disk);
    return s.bavail * s.bsize;
  };
  const create = (content: string) => app.gql(CREATE_MEMORY, { input: { apiKeyId: 'full', content } });
  let acknowledged = 0;

  beforeAll(async () => {
    app = await startTestApp({ dir: disk });
    await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
    for (; acknowledged < 5; acknowledged++) await app.ok(CREATE_MEMORY, { input: { apiKeyId: 'full', content: `kept ${acknowledged}` } });
    // Everything but 64 KiB goes to a file the test can delete; the writes below take the rest.
    writeFileSync(ballast, Buffer.alloc(Math.max(0, free() - 64 * 1024)));
    for (let i = 0; i < 500; i++) {
      const res = await create(`filler ${i} ${'lorem ipsum dolor sit amet '.repeat(40)}`);
      if (res.errors) break;
      acknowledged++;
    }
  });
  afterAll(async () => {
    rmSync(ballast, { force: true });
    await app?.close();
    execFileSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it('refuses a write with STORAGE_FULL and says the disk is full', async () => {
    const error = onlyError(await create('one more thing to remember'));
    expect(error.extensions?.code).toBe('STORAGE_FULL');
    expect(error.message).toContain('its disk is full');
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
    rmSync(ballast);
    expect((await app.ok(HEALTH)).memoryHealth).toMatchObject({ ok: true, errorCode: null, error: null });
    expect((await create('written after the disk was freed')).errors).toBeUndefined();
    const { memories } = await app.ok(MEMORY_STATS, { apiKeyId: 'full' });
    expect(memories.stats.totalEntries).toBe(acknowledged + 1);
  });
});
