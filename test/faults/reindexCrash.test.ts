import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, expect, it } from 'vitest';
import { okAt } from '../helpers/graphqlHttp.ts';
import { type MnemoProcess, spawnMnemo } from '../helpers/mnemoProcess.ts';
import { IMPORT_MEMORIES, REINDEX_PROGRESS, START_REINDEX } from '../helpers/operations.ts';
import { subscribe } from '../helpers/subscribe.ts';
import { topicEngineEnv, topicModelDir } from '../helpers/topicModel.ts';

const ADMIN = 'faults-admin-token-0123456789';
const MEMORIES = 600;
const WATCHERS = 20;

const processes = new Set<MnemoProcess>();
const folders: string[] = [];
afterEach(() => {
  for (const p of processes) p.child.kill('SIGKILL');
  processes.clear();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function serve(dataDir: string, models: string) {
  const env = topicEngineEnv(models, {
    MNEMO_DATA_DIR: dataDir,
    MNEMO_ADMIN_TOKEN: ADMIN,
    MEMORY_EMBEDDING_BATCH_SIZE: '2',
    HOME: dataDir,
  });
  const mnemo = spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], env);
  processes.add(mnemo);
  return mnemo;
}

/** The job's row and the memories still without a vector, as SQLite holds them. */
function onDisk(dataDir: string, jobId: string) {
  const db = new SQLite(path.join(dataDir, 'mnemo.db'), { readonly: true });
  sqliteVec.load(db);
  try {
    const job = db.prepare('select status, processed, total, owner from reindex_jobs where id = ?').get(jobId) as Record<string, unknown>;
    const { pending } = db.prepare('select count(*) as pending from memories where needs_reindex = 1').get() as { pending: number };
    return { job, pending };
  } finally {
    db.close();
  }
}

it('after kill -9 in the middle of a reindex and a restart, the job completes and every watcher sees it end', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mnemo-fault-'));
  const models = topicModelDir();
  folders.push(dataDir, models);
  const first = serve(dataDir, models);
  const url = await first.listening();
  const memories = Array.from({ length: MEMORIES }, (_, i) => ({ apiKeyId: 'k1', key: `m${i}`, content: `I eat mango on day ${i}` }));
  await okAt(url, IMPORT_MEMORIES, { memories }, ADMIN);
  const jobId = (await okAt(url, START_REINDEX, {}, ADMIN)).reindex.id;

  // Killed as soon as the job has done some of its work.
  const watcher = subscribe(url, REINDEX_PROGRESS, { jobId }, ADMIN);
  for (let e = await watcher.next(); e && (e.data?.reindexProgress.processed ?? 0) === 0; e = await watcher.next());
  first.child.kill('SIGKILL');
  expect(await first.exited).toBeNull();
  watcher.close();
  const killed = onDisk(dataDir, jobId);
  expect(killed.job).toMatchObject({ status: 'running' });
  expect(killed.job.processed).toBeLessThan(MEMORIES);

  // The restarted server takes the job over at once: its owner's process is gone.
  const second = serve(dataDir, models);
  const url2 = await second.listening();
  const watchers = Array.from({ length: WATCHERS }, () => subscribe(url2, REINDEX_PROGRESS, { jobId }, ADMIN));
  const streams = await Promise.all(watchers.map((w) => w.rest()));
  for (const events of streams) expect(events.at(-1)?.data?.reindexProgress.status).toBe('COMPLETED');
  expect(onDisk(dataDir, jobId)).toMatchObject({ job: { status: 'completed', total: MEMORIES }, pending: 0 });

  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}, 180_000);
