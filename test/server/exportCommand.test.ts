import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/audit.service.ts';
import { listMemories } from '../../server/memory/memory.service.ts';
import { runMnemo } from '../helpers/mnemoProcess.ts';
import { openTestDb } from '../helpers/testDb.ts';

// `mnemo export`: the bundle of test/server/exportBundle.test.ts from the command line, read back by `mnemo import`.

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-export-'));
  const lines = [
    { apiKeyId: 'key-ann', key: 'pref:tea', content: 'Drinks green tea in the morning' },
    { apiKeyId: 'key-ann', key: 'pref:desk', content: 'Works at a standing desk' },
    { apiKeyId: 'key-ben', key: 'pref:bike', content: 'Cycles to work' },
  ];
  writeFileSync(path.join(tmp, 'seed.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const run = (dataDir: string, args: string[]) => runMnemo(args, { HOME: tmp, MNEMO_DATA_DIR: path.join(tmp, dataDir) });
const seeded = async () =>
  expect((await run('source', ['import', '--from', 'jsonl', path.join(tmp, 'seed.jsonl'), '--create'])).code).toBe(0);

async function opened<T>(dataDir: string, read: (t: Awaited<ReturnType<typeof openTestDb>>) => Promise<T>) {
  const t = await openTestDb({ dir: path.join(tmp, dataDir) });
  try {
    return await read(t);
  } finally {
    await t.close();
  }
}
const contents = (dataDir: string, apiKeyId: string) =>
  opened(dataDir, async (t) =>
    (await listMemories(t.services, { apiKeyId }, { limit: 10, orderBy: 'key', direction: 'asc' })).items.map((m) => m.content),
  );

describe('mnemo export', () => {
  it('writes the bundle to the file named, with a progress line and what it wrote, and records it in the audit log', async () => {
    await seeded();
    const out = path.join(tmp, 'all.jsonl');
    const { code, stdout, stderr } = await run('source', ['export', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ format: 'mnemo-export', apiKeyId: null, counts: { memories: 3, versions: 0, tombstones: 0 } });
    expect(stderr).toBe(
      `export 3 of 3 lines\nexported 3 memories (0 versions) and 0 tombstones of every key from ${path.join(tmp, 'source', 'mnemo.db')} to ${out}, checksum ${header.checksum}\n`,
    );
    const audit = await opened('source', async (t) => (await auditLog(t.services, { action: 'MEMORIES_EXPORT' }, { limit: 10 })).items);
    expect(audit).toMatchObject([{ actor: { id: 'cli' }, apiKeyId: null, target: { memories: 3, versions: 0, tombstones: 0 } }]);
  });

  it("writes one key's bundle to standard output, which mnemo import reads into another installation", async () => {
    await seeded();
    const { code, stdout } = await run('source', ['export', '--api-key', 'key-ann']);
    expect(code).toBe(0);
    const file = path.join(tmp, 'ann.jsonl');
    writeFileSync(file, stdout);
    const imported = await run('target', ['import', '--from', 'jsonl', file, '--create']);
    expect(imported.stdout).toContain(
      `imported 2 rows of jsonl ${file} into ${path.join(tmp, 'target', 'mnemo.db')}: 2 new, 0 updated, 0 merged, 0 skipped`,
    );
    expect(await contents('target', 'key-ann')).toEqual(await contents('source', 'key-ann'));
    expect(await contents('target', 'key-ben')).toEqual([]);
  });

  it('refuses to import a bundle changed after the export, before writing anything (exit 64)', async () => {
    await seeded();
    const out = path.join(tmp, 'all.jsonl');
    await run('source', ['export', '--out', out]);
    writeFileSync(out, readFileSync(out, 'utf8').replace('Cycles to work', 'Cycles to Rome'));
    const { code, stderr } = await run('target', ['import', '--from', 'jsonl', out, '--create']);
    expect(stderr).toMatch(
      /^mnemo: .*all\.jsonl does not match its header's checksum \(sha256 [0-9a-f]{64}, the header says [0-9a-f]{64}\)/,
    );
    expect(code).toBe(64);
    expect(await contents('target', 'key-ben')).toEqual([]);
  });

  it('leaves no part of a file when it cannot write one, and says why', async () => {
    await seeded();
    const out = path.join(tmp, 'missing-folder', 'all.jsonl');
    const { code, stderr } = await run('source', ['export', '--out', out]);
    expect(stderr).toMatch(new RegExp(`^mnemo: ${out} cannot be written: ENOENT`));
    expect(code).toBe(64);
    expect(existsSync(path.dirname(out))).toBe(false);
    expect(readdirSync(tmp).sort()).toEqual(['seed.jsonl', 'source']);
  });

  it('refuses an API key that is not one, and --out on another command', async () => {
    expect(await run('source', ['export', '--api-key', ' '])).toMatchObject({ code: 64 });
    expect(await run('source', ['purge', '--out', 'x'])).toMatchObject({
      code: 64,
      stderr: 'mnemo: --out belongs to export\nRun "mnemo --help" for usage.\n',
    });
  });
});
