import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/audit.service.ts';
import { listMemories } from '../../server/memory/memory.service.ts';
import { runMnemo } from '../helpers/mnemoProcess.ts';
import { openTestDb } from '../helpers/testDb.ts';

// `mnemo import --from FORMAT FILE`: the command line around the importers (test/server/importers.test.ts).

const FIXTURES = path.join(import.meta.dirname, '../fixtures/import');
let tmp: string;
let dataDir: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-import-'));
  dataDir = path.join(tmp, 'data');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const run = (args: string[]) => runMnemo(args, { HOME: tmp, MNEMO_DATA_DIR: dataDir });
let jsonl: string;
beforeEach(() => {
  // Written now, so that retention (which counts from createdAt) never hides them, whenever the test runs.
  jsonl = path.join(tmp, 'memories.jsonl');
  writeFileSync(
    jsonl,
    [
      { format: 'mnemo.memories', version: 1 },
      { apiKeyId: 'key-carol', type: 'FACTUAL', key: 'pref:tea', content: 'Drinks green tea in the morning' },
      { apiKeyId: 'key-carol', type: 'procedural', key: 'how:standup', content: 'Standup notes go in the team channel' },
      { apiKeyId: 'key-carol', type: 'FACTUAL', key: 'bad:content', content: '   ' },
    ]
      .map((row) => JSON.stringify(row))
      .concat(['not json at all', JSON.stringify({ apiKeyId: 'key-carol', type: 'MOOD', key: 'bad:type', content: 'A mood' })])
      .join('\n'),
  );
});

async function stored(apiKeyId: string) {
  const t = await openTestDb({ dir: dataDir });
  try {
    return {
      memories: (await listMemories(t.services, { apiKeyId }, { limit: 100 })).items,
      audit: (await auditLog(t.services, { action: 'MEMORIES_IMPORT' }, { limit: 10 })).items,
    };
  } finally {
    await t.close();
  }
}

describe('mnemo import', () => {
  it('imports the file, prints what it did with the first skipped rows and why, and records it in the audit log', async () => {
    const { code, stdout, stderr } = await run(['import', '--from', 'jsonl', jsonl, '--create']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `imported 5 rows of jsonl ${jsonl} into ${path.join(dataDir, 'mnemo.db')}: 2 new, 0 updated, 0 merged, 3 skipped`,
        '  memory is switched off in the settings: nothing is injected until it is on',
        '  skipped line 4: content must not be empty',
        '  skipped line 5: not JSON',
        '  skipped line 6: type "MOOD" is not one of factual, episodic, procedural, semantic, enforced',
        '',
      ].join('\n'),
    );
    expect(stderr).toMatch(/^import 5 rows read, 2 new, 0 updated, 0 merged, 3 skipped {2}\d+\/s\n$/);
    const { memories, audit } = await stored('key-carol');
    expect(memories).toHaveLength(2);
    expect(audit).toMatchObject([
      { actor: { id: 'cli' }, target: { format: 'jsonl', rows: 5, imported: 2, updated: 0, merged: 0, skipped: 3 } },
    ]);
  });

  it('writes nothing in a dry run, and says so', async () => {
    expect((await run(['migrate'])).code).toBe(0);
    const { code, stdout } = await run(['import', '--from', 'jsonl', jsonl, '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('would import 5 rows of jsonl');
    expect(stdout).toContain('2 new, 0 updated, 0 merged, 3 skipped (dry run: nothing was written)');
    expect(await stored('key-carol')).toEqual({ memories: [], audit: [] });
  });

  it('updates instead of duplicating when the same file is imported again', async () => {
    await run(['import', '--from', 'jsonl', jsonl, '--create']);
    const again = await run(['import', '--from', 'jsonl', jsonl]);
    expect(again.stdout).toContain(': 0 new, 2 updated, 0 merged, 3 skipped');
    expect((await stored('key-carol')).memories).toHaveLength(2);
  });

  it.each([
    [['import', 'memories.jsonl'], 'import needs --from, one of omniroute, mem0, letta, jsonl, csv'],
    [['import', '--from', 'xml', 'memories.jsonl'], 'import needs --from, one of omniroute, mem0, letta, jsonl, csv'],
    [['import', '--from', 'mem0'], 'import needs the file to read'],
    [['import', '--from', 'jsonl', 'memories.jsonl', '--key-from', 'user_id'], '--key-from belongs to --from mem0'],
    [['import', '--from', 'mem0', 'memories.jsonl', '--session-from', 'thread'], '--session-from must be one of user_id, agent_id, run_id'],
    [
      ['import', '--from', 'omniroute', 'memories.jsonl', '--api-key', 'k'],
      '--from omniroute rows name their own API keys; --api-key does not apply',
    ],
    [['import', '--from', 'mem0', 'memories.jsonl', '--api-key', 'k', '--key-from', 'user_id'], 'give --api-key or --key-from, not both'],
  ])('refuses %j as a usage error (exit 64) before opening anything', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(64);
    expect(stderr).toBe(`mnemo: ${message}\nRun "mnemo --help" for usage.\n`);
  });

  it('names a file it cannot read, and exits as for bad input (64)', async () => {
    await run(['migrate']);
    const missing = path.join(tmp, 'nowhere.jsonl');
    const { code, stderr } = await run(['import', '--from', 'jsonl', missing]);
    expect(stderr).toMatch(new RegExp(`^mnemo: ${missing} cannot be read: ENOENT`));
    expect(code).toBe(64);
  });

  it('refuses a file of another format, naming what it expected', async () => {
    await run(['migrate']);
    const { code, stderr } = await run(['import', '--from', 'mem0', path.join(FIXTURES, 'letta.af')]);
    expect(stderr).toContain('is not a mem0 export: expected { "results": [...] } or a list of memories');
    expect(code).toBe(64);
  });
});
