import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CLI_ACTOR, recordAudit } from '../../server/audit/audit.service.ts';
import { DataFolderBusyError, holdDataFolder } from '../../server/backup/dataFolderLock.ts';
import { runCli } from '../../server/cli.ts';
import { copyDataFolder } from '../../server/copyStore/copyDataFolder.ts';
import { COPIED_TABLES, NOT_COPIED } from '../../server/copyStore/copyStore.repository.ts';
import { CopyStoreError } from '../../server/copyStore/copyStore.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { type Db, type OpenedStore, openDatabase, openPostgres } from '../../server/db/open.ts';
import { runEvaluation } from '../../server/evaluation/evaluationRuns.service.ts';
import { addEvaluationQuestion, createEvaluationSet } from '../../server/evaluation/evaluationSets.service.ts';
import * as reindexRepo from '../../server/jobs/reindex.repository.ts';
import { createLogger } from '../../server/logger.ts';
import { createMemory, deleteMemory } from '../../server/memory/memory.service.ts';
import { summarize } from '../../server/memory/summary.service.ts';
import { retrieve } from '../../server/retrieval/retrieval.service.ts';
import { createServices, type Services } from '../../server/services.ts';
import { DAY_MS } from '../../server/settings/settings.service.ts';
import { runMnemo, spawnMnemo } from '../helpers/mnemoProcess.ts';
import { dropDatabase, ensureDatabase } from '../helpers/postgres.ts';

// Runs in the postgres project only (vitest.config.ts, POSTGRES_ONLY): the source is always SQLite and the target always
// PostgreSQL, so it has no SQLite-only variant to run in the default project, and it shares the run's one cluster.
const serverUrl = () => {
  const url = inject('postgresUrl');
  if (!url) throw new Error('copy-store tests need the postgres project (its globalSetup starts the cluster)');
  return url;
};

let tmp: string;
let databases: string[];
let open: OpenedStore[];

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-copy-'));
  databases = [];
  open = [];
});

afterEach(async () => {
  for (const store of open.reverse()) await store.close();
  for (const name of databases) await dropDatabase(serverUrl(), name);
  rmSync(tmp, { recursive: true, force: true });
});

/** A new, empty PostgreSQL database (not migrated: copy-store brings it to the schema). */
async function emptyTarget(): Promise<string> {
  const name = `copy_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  databases.push(name);
  return ensureDatabase(serverUrl(), name);
}

function withServices(store: OpenedStore, clock?: () => number): Services {
  open.push(store);
  return createServices({ db: store.db, logger: createLogger('silent'), clock });
}

async function openTarget(url: string): Promise<Services> {
  const store = openPostgres(url, { poolSize: 2 });
  await migrateToLatest(store.db);
  return withServices(store);
}

interface Source {
  dir: string;
  file: string;
  services: Services;
  gatewayToken: string;
  revokedToken: string;
  summaryId: string;
}

/**
 * A data folder written by mnemo's own services: memories of two keys with metadata and sessions, written 20 days
 * ago so that one key's are compacted into summaries (the originals archived), tokens (one revoked), settings, a
 * provider, audit entries, retrieval stats, reindex jobs (one still running) and a Qdrant delete still queued.
 */
async function buildSource(name: string, memories = 24): Promise<Source> {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  const file = path.join(dir, 'mnemo.db');
  const store = openDatabase(file);
  await migrateToLatest(store.db);
  let now = Date.now() - 20 * DAY_MS;
  const services = withServices(store, () => now);
  // acme's restated facts are stored one per key, as before paraphrases were merged.
  await services.settings.update({ mergeParaphrases: false });
  for (let i = 0; i < memories; i++) {
    await createMemory(services, {
      apiKeyId: i % 2 === 0 ? 'acme' : 'globex',
      sessionId: i % 3 === 0 ? null : `session-${i % 3}`,
      type: i % 4 === 0 ? 'procedural' : 'factual',
      key: `${name}-fact-${i}`,
      // acme's facts repeat (as restated facts do), so that its summaries are smaller than the originals.
      content: i % 2 === 0 ? `The ${name} release train leaves every Friday at noon` : `Deploy pipeline fact number ${i} of ${name}`,
      metadata: { index: i, tags: ['copy', name], nested: { even: i % 2 === 0 } },
    });
  }
  now = Date.now();
  const { summaries, refusedReason } = await summarize(services, { apiKeyId: 'acme', dryRun: false, olderThanDays: 10 });
  if (summaries.length === 0) throw new Error(`no summary: ${refusedReason}`);
  await createMemory(services, { apiKeyId: 'globex', key: `${name}-recent`, content: 'A recent fact', metadata: { fresh: true } });
  const set = await createEvaluationSet(services, { apiKeyId: 'globex', name: `${name} questions` });
  await addEvaluationQuestion(services, {
    apiKeyId: 'globex',
    setId: set.id,
    question: 'Which recent fact?',
    expected: [`${name}-recent`],
  });
  await runEvaluation(services, { apiKeyId: 'globex', setId: set.id });
  const gateway = await services.tokens.mint({ name: 'gateway', role: 'gateway', apiKeyId: 'acme', mayForgetKey: true });
  await services.tokens.mint({ name: 'admin', role: 'admin', apiKeyId: null, mayForgetKey: false });
  const revoked = await services.tokens.mint({ name: 'old', role: 'gateway', apiKeyId: null, mayForgetKey: false });
  await services.tokens.revoke(revoked.accessToken.id);
  await services.settings.update({ retentionDays: 90, maxTokens: 1500, vectorStore: 'QDRANT' });
  await services.providers.upsert({
    id: 'embedder',
    baseUrl: 'https://embeddings.example.test/v1',
    apiKey: 'sk-example',
    models: [{ name: 'small', kind: 'embedding', dimension: 8 }],
  });
  await recordAudit(services, { actor: CLI_ACTOR, action: 'TOKEN_CREATE', target: { tokenId: gateway.accessToken.id } });
  await recordAudit(services, { actor: CLI_ACTOR, action: 'SETTINGS_UPDATE', apiKeyId: 'acme', target: { name: 'retentionDays' } });
  await retrieve(services, { apiKeyId: 'globex', query: 'deploy pipeline' }, { record: true });
  const finished = await reindexRepo.insertRunningJob(store.db, { id: randomUUID(), force: false, total: 3, owner: 'x:1:a', now });
  await reindexRepo.finishJob(store.db, finished.id, { status: 'completed', now });
  await reindexRepo.insertRunningJob(store.db, { id: randomUUID(), force: true, total: 9, owner: 'x:2:b', now });
  // vectorStore QDRANT: deleting a memory queues its point's removal.
  const gone = await createMemory(services, { apiKeyId: 'globex', key: `${name}-gone`, content: 'Soon deleted' });
  await deleteMemory(services, gone.id, () => true, 'admin');
  return { dir, file, services, gatewayToken: gateway.token, revokedToken: revoked.token, summaryId: summaries[0]!.id };
}

/** A table's rows in key order, as plain objects (SQLite's generated fts_tenant left out). */
async function rows(db: Db, table: (typeof COPIED_TABLES)[number]['table'] | 'memory_counts', key: string) {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by ${sql.ref(key)}`.execute(db);
  return rows.map(({ fts_tenant: _, ...row }) => row);
}

/** Many plain memories at once, written straight into the table (the services' write path is not what is tested here). */
async function addMemoryRows(db: Db, count: number) {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i += 200) {
      const rows = Array.from({ length: Math.min(200, count - i) }, (_, j) => ({
        id: randomUUID(),
        api_key_id: 'bulk',
        type: 'factual' as const,
        key: `bulk-${i + j}`,
        content: `Bulk fact ${i + j}`,
        metadata: JSON.stringify({ n: i + j }),
        tokens: 4,
        created_at: now,
        updated_at: now,
        valid_from: now,
      }));
      await trx.insertInto('memories').values(rows).execute();
    }
  });
}

async function memoryCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const copy = (source: Source, targetUrl: string, extra: Partial<Parameters<typeof copyDataFolder>[0]> = {}) =>
  copyDataFolder({ dataDir: source.dir, databaseFile: source.file, targetUrl, batchSize: 5, ...extra });

describe('mnemo copy-store: SQLite data folder into PostgreSQL', () => {
  it('copies every table with equal counts and equal rows, memories flagged for reindexing', async () => {
    const source = await buildSource('full');
    const url = await emptyTarget();
    const outcome = await copy(source, url);
    expect(outcome.complete).toBe(true);
    for (const c of outcome.counts) expect(c.target, c.table).toBe(c.source);
    expect(outcome.counts.find((c) => c.table === 'memories')!.source).toBe(await memoryCount(source.services.db));
    const target = await openTarget(url);
    for (const t of COPIED_TABLES.filter((t) => t.table !== 'memories' && t.table !== 'reindex_jobs')) {
      expect(await rows(target.db, t.table, t.key), t.table).toEqual(await rows(source.services.db, t.table, t.key));
    }
    const sourceMemories = await rows(source.services.db, 'memories', 'pk');
    expect(await rows(target.db, 'memories', 'pk')).toEqual(sourceMemories.map((m) => ({ ...m, needs_reindex: 1 })));
    expect(outcome.memoriesToReindex).toBe(sourceMemories.length);
    expect(sourceMemories.filter((m) => m.archived_by !== null).length).toBeGreaterThan(0);
    const jobs = await rows(target.db, 'reindex_jobs', 'id');
    expect(jobs.map((j) => j.status)).toEqual(['completed']);
    const counted = async (db: Db) => (await rows(db, 'memory_counts', 'api_key_id')).filter((r) => Number(r.memories) > 0);
    expect(await counted(target.db)).toEqual(await counted(source.services.db));
    expect(await target.settings.get()).toEqual(await source.services.settings.get());
    const outbox = await target.db.selectFrom('qdrant_outbox_state').select('enabled').executeTakeFirstOrThrow();
    expect(outbox.enabled).toBe(1);
  });

  it('leaves tokens valid on PostgreSQL: a copied token authenticates, a revoked one stays refused', async () => {
    const source = await buildSource('tokens');
    const url = await emptyTarget();
    await copy(source, url);
    const target = await openTarget(url);
    expect(await target.tokens.authenticate(source.gatewayToken)).toMatchObject({ role: 'gateway', apiKeyId: 'acme', mayForgetKey: true });
    expect(await target.tokens.authenticate(source.revokedToken)).toBeNull();
  });

  it("keeps summaries with their originals: deleting a copied summary on PostgreSQL brings its originals back (the target's trigger)", async () => {
    const source = await buildSource('summaries');
    const url = await emptyTarget();
    await copy(source, url);
    const target = await openTarget(url);
    const archivedBy = (id: string) => target.db.selectFrom('memories').select('id').where('archived_by', '=', id).execute();
    const archived = await archivedBy(source.summaryId);
    expect(archived.length).toBeGreaterThan(1);
    await target.db.deleteFrom('memories').where('id', '=', source.summaryId).execute();
    expect(await archivedBy(source.summaryId)).toEqual([]);
    const back = await target.db
      .selectFrom('memories')
      .select('archived_by')
      .where(
        'id',
        'in',
        archived.map((m) => m.id),
      )
      .execute();
    expect(back.map((m) => m.archived_by)).toEqual(archived.map(() => null));
  });

  it('gives memories and audit entries written on PostgreSQL afterwards keys after every copied one', async () => {
    const source = await buildSource('keys');
    const { rows: seq } = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(source.services.db);
    const url = await emptyTarget();
    await copy(source, url);
    const target = await openTarget(url);
    // Written as the table's defaults give keys (the memory write path itself is another part of the PostgreSQL work).
    const now = Date.now();
    const memory = await target.db
      .insertInto('memories')
      .values({
        id: randomUUID(),
        api_key_id: 'acme',
        type: 'factual',
        key: 'after-the-move',
        content: 'Written on PostgreSQL',
        metadata: '{}',
        tokens: 4,
        created_at: now,
        updated_at: now,
        valid_from: now,
      })
      .returning('pk')
      .executeTakeFirstOrThrow();
    const entry = await recordAudit(target, { actor: CLI_ACTOR, action: 'TOKEN_CREATE', target: { name: 'after' } });
    // Past SQLite's AUTOINCREMENT, which counts the deleted memory too: its queued Qdrant delete keeps naming it alone.
    expect(memory.pk).toBeGreaterThan(seq.find((s) => s.name === 'memories')!.seq);
    expect(Number(entry.id)).toBeGreaterThan(seq.find((s) => s.name === 'audit_log')!.seq);
  });

  it('continues an interrupted copy where it stopped, with no row twice and none missing', async () => {
    const source = await buildSource('resume', 60);
    const url = await emptyTarget();
    let batches = 0;
    const interrupted = copy(source, url, {
      onProgress: () => {
        if (++batches === 9) throw new Error('interrupted');
      },
    });
    await expect(interrupted).rejects.toThrow('interrupted');
    const target = await openTarget(url);
    const partial = await target.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(partial.n)).toBeLessThan(63);

    const outcome = await copy(source, url);
    expect(outcome.resumed).toBe(true);
    expect(outcome.complete).toBe(true);
    for (const c of outcome.counts) expect(c.target, c.table).toBe(c.source);
    const sourceMemories = await rows(source.services.db, 'memories', 'pk');
    expect((await rows(target.db, 'memories', 'pk')).map((m) => m.id)).toEqual(sourceMemories.map((m) => m.id));
    expect(await rows(target.db, 'audit_log', 'id')).toEqual(await rows(source.services.db, 'audit_log', 'id'));
  });

  it('refuses to copy a second installation into a target that holds a copy of another', async () => {
    const first = await buildSource('first');
    const second = await buildSource('second');
    const url = await emptyTarget();
    await copy(first, url);
    const refused = copy(second, url);
    await expect(refused).rejects.toThrow(CopyStoreError);
    await expect(refused).rejects.toThrow(/holds a copy of another mnemo installation \(.*first.*mnemo\.db/);
    const target = await openTarget(url);
    const keys = await target.db.selectFrom('memories').select('key').where('key', 'like', 'second-%').execute();
    expect(keys).toEqual([]);
  });

  it('refuses a target that a mnemo already wrote to', async () => {
    const source = await buildSource('used');
    const url = await emptyTarget();
    const running = await openTarget(url);
    await running.tokens.ensureAdminToken();
    await expect(copy(source, url)).rejects.toThrow(/already holds data that is not a copy of this source \(in access_tokens\)/);
  });

  it('refuses while mnemo serve holds the source folder, and holds it itself while copying', async () => {
    const source = await buildSource('served');
    const url = await emptyTarget();
    const served = holdDataFolder(source.dir);
    try {
      await expect(copy(source, url)).rejects.toThrow(/mnemo serve \(pid \d+ .*\) holds this data folder/);
    } finally {
      served.release();
    }
    let serveTried: unknown = null;
    await copy(source, url, {
      onProgress: () => {
        if (serveTried) return;
        try {
          holdDataFolder(source.dir);
        } catch (error) {
          serveTried = error;
        }
      },
    });
    expect(serveTried).toBeInstanceOf(DataFolderBusyError);
    expect(String(serveTried)).toContain('mnemo copy-store');
  });

  it('names the rows PostgreSQL refuses: a NUL character, which SQLite keeps in text', async () => {
    const source = await buildSource('nul');
    const odd = await createMemory(source.services, { apiKeyId: 'acme', key: 'nul-byte', content: 'before\u0000after' });
    const { pk } = await source.services.db.selectFrom('memories').select('pk').where('id', '=', odd.id).executeTakeFirstOrThrow();
    const refused = copy(source, await emptyTarget(), { batchSize: 1 });
    await expect(refused).rejects.toThrow(`PostgreSQL refused the memories rows with pk ${pk} to ${pk}: invalid byte sequence`);
  });

  it('accounts for every table of the PostgreSQL schema: copied, or left out for a stated reason', async () => {
    const target = await openTarget(await emptyTarget());
    const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(target.db);
    const accounted = new Set([...COPIED_TABLES.map((t) => t.table), ...Object.keys(NOT_COPIED)]);
    expect(tables.map((t) => t.name).filter((t) => !accounted.has(t))).toEqual([]);
  });
});

/** `mnemo serve` on a data folder, in this process; resolves once it listens. */
async function serve(dataDir: string) {
  const out = { stdout: '', stderr: '' };
  let listening: () => void = () => {};
  const started = new Promise<void>((resolve) => (listening = resolve));
  let requestStop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  const exited = runCli(['serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { HOME: tmp, MNEMO_DATA_DIR: dataDir, MNEMO_WORKERS: '1' },
    stdout: {
      write: (text: string) => {
        out.stdout += text;
        if (text.includes('mnemo is listening')) listening();
      },
    },
    stderr: { write: (text: string) => (out.stderr += text) },
    stopRequested: () => stopRequested,
  });
  const failed = exited.then((code) => Promise.reject(new Error(`serve exited with ${code}:\n${out.stdout}\n${out.stderr}`)));
  await Promise.race([started, failed]);
  return {
    stop: () => {
      requestStop();
      return exited;
    },
  };
}

describe('mnemo copy-store on the command line', () => {
  const cli = (args: string[]) => runMnemo(['copy-store', ...args], { HOME: tmp });

  it('prints progress and the counts of every table, says vectors are rebuilt by reindex, and exits 0', async () => {
    const source = await buildSource('cli');
    const n = await memoryCount(source.services.db);
    const url = await emptyTarget();
    const { code, stdout, stderr } = await cli(['--from', source.dir, '--to', url]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(new RegExp(`^copy-store memories \\d+/${n} \\(\\d+\\.\\d%\\)  all \\d+/\\d+`, 'm'));
    expect(stdout).toMatch(new RegExp(`^memories\\s+${n}\\s+${n}$`, 'm'));
    expect(stdout).toMatch(/^audit_log\s+2\s+2$/m);
    expect(stdout).toContain('every count matches');
    expect(stdout).toContain(`Vectors are not copied: the ${n} memories are flagged for reindexing`);
  });

  it('exits 1 and marks the table when the counts differ', async () => {
    const source = await buildSource('differs');
    const url = await emptyTarget();
    expect((await cli(['--from', source.dir, '--to', url])).code).toBe(0);
    const extra = await source.services.db
      .selectFrom('memories')
      .select('id')
      .where('key', '=', 'differs-recent')
      .executeTakeFirstOrThrow();
    await deleteMemory(source.services, extra.id, () => true, 'admin');
    const n = await memoryCount(source.services.db);
    const { code, stdout, stderr } = await cli(['--from', source.dir, '--to', url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(new RegExp(`^memories\\s+${n}\\s+${n + 1}  DIFFERS$`, 'm'));
    expect(stderr).toContain('do not match');
  });

  // A longer timeout: a real process started from source (tsx) on a busy machine can take most of the default 30 s to start.
  it('continues after the process was killed with SIGKILL mid-copy, with no row twice and none missing', async () => {
    const source = await buildSource('killed');
    await addMemoryRows(source.services.db, 1200);
    const url = await emptyTarget();
    const killed = spawnMnemo(['copy-store', '--from', source.dir, '--to', url], { HOME: tmp }, {}, [
      path.join(import.meta.dirname, '../helpers/killAtFirstMemoryBatch.mjs'),
    ]);
    expect(await killed.exited, killed.out.stderr).toBeNull();
    const target = await openTarget(url);
    // Killed right after the first batch of memories was committed: that batch is there, nothing after it.
    expect(await memoryCount(target.db)).toBe(500);

    const { code, stdout, stderr } = await cli(['--from', source.dir, '--to', url]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('continued the copy begun');
    const ids = await target.db.selectFrom('memories').select('id').orderBy('pk').execute();
    const sourceIds = await source.services.db.selectFrom('memories').select('id').orderBy('pk').execute();
    expect(ids).toEqual(sourceIds);
  }, 120_000);

  it('refuses clearly while mnemo serve runs on the source folder', async () => {
    const source = await buildSource('cliserved');
    const url = await emptyTarget();
    const server = await serve(source.dir);
    try {
      const { code, stderr } = await cli(['--from', source.dir, '--to', url]);
      expect(code).toBe(69);
      expect(stderr).toMatch(/mnemo serve \(pid \d+ .*\) holds this data folder; stop it first/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('says what is wrong with a URL that is not PostgreSQL, or a server it cannot reach, without the password', async () => {
    const source = await buildSource('badurl');
    const notPostgres = await cli(['--from', source.dir, '--to', 'mysql://root@127.0.0.1/mnemo']);
    expect(notPostgres.code).toBe(64);
    expect(notPostgres.stderr).toContain('must start with postgres:// or postgresql://');
    const unreachable = await cli(['--from', source.dir, '--to', 'postgres://mnemo:s3cret@127.0.0.1:1/mnemo']);
    expect(unreachable.code).toBe(69);
    expect(unreachable.stderr).toContain('cannot use the PostgreSQL database: connect ECONNREFUSED 127.0.0.1:1');
    expect(unreachable.stderr).toContain('postgres://mnemo:***@127.0.0.1:1/mnemo');
    expect(unreachable.stderr).not.toContain('s3cret');
  });

  it('refuses a folder without a mnemo database instead of creating one', async () => {
    const url = await emptyTarget();
    const { code, stderr } = await cli(['--from', path.join(tmp, 'nothing-here'), '--to', url]);
    expect(code).toBe(66);
    expect(stderr).toContain('there is no mnemo database at');
  });
});
