import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type QdrantDouble, startQdrantDouble } from '../doubles/qdrant.ts';
import { ReplicasEnableQdrantDocument as ENABLE_QDRANT, ReplicasViewerDocument as VIEWER } from '../generated/graphql.ts';
import { graphqlAt, okAt } from '../helpers/graphqlHttp.ts';
import { type MnemoProcess, spawnMnemo } from '../helpers/mnemoProcess.ts';
import {
  CREATE_MEMORY,
  CREATE_TOKEN,
  GET_SETTINGS,
  IMPORT_MEMORIES,
  LIST_MEMORIES,
  REINDEX_PROGRESS,
  REVOKE_TOKEN,
  START_REINDEX,
  UPDATE_SETTINGS,
} from '../helpers/operations.ts';
import { dropDatabase, ensureDatabase, withPostgres } from '../helpers/postgres.ts';
import { subscribe } from '../helpers/subscribe.ts';
import { topicEngineEnv, topicModelDir } from '../helpers/topicModel.ts';

// Several `mnemo serve` processes on one PostgreSQL database, as behind a load balancer: real processes (dist/ after
// `npm run build`, else the sources), a database of the run's throwaway cluster that they migrate themselves at start,
// the generated topic model for embeddings and the Qdrant double for vectors (on PostgreSQL vectors live in Qdrant).

const ADMIN = 'replicas-admin-token-0123456789';
const DATABASE = 'mnemo_replicas';
const MEMORIES = 400;

interface Replica {
  name: string;
  url: string;
  process: MnemoProcess;
}

const folders: string[] = [];
let qdrant: QdrantDouble;
let databaseUrl: string;
let models: string;
let replicas: Replica[];

function serve(name: string): MnemoProcess {
  const dataDir = mkdtempSync(path.join(tmpdir(), `mnemo-replica-${name}-`));
  folders.push(dataDir);
  const env = topicEngineEnv(models, {
    MNEMO_DATA_DIR: dataDir,
    MNEMO_DATABASE_URL: databaseUrl,
    MNEMO_ADMIN_TOKEN: ADMIN,
    MNEMO_QDRANT_URL: qdrant.url,
    MEMORY_EMBEDDING_BATCH_SIZE: '2',
    // Leases of 5 s (renewed every 1.7 s) instead of 15: a killed replica's duties move on sooner, as for an operator
    // who wants fast failover.
    MNEMO_LEASE_SECONDS: '5',
    HOME: dataDir,
  });
  return spawnMnemo(['serve', '--port', '0', '--host', '127.0.0.1'], env);
}

async function start(name: string): Promise<Replica> {
  const mnemo = serve(name);
  return { name, process: mnemo, url: await mnemo.listening() };
}

/** The reindex job's row as the shared database holds it. */
function jobRow(id: string) {
  return withPostgres(databaseUrl, async (db) => {
    const { rows } = await sql<{ status: string; owner: string | null; processed: number; total: number }>`
      select status, owner, processed::int as processed, total::int as total from reindex_jobs where id = ${id}`.execute(db);
    return rows[0]!;
  });
}

/** The replica whose process an instance id (host:pid:random) names. */
function replicaOf(owner: string | null): Replica | undefined {
  const pid = Number(owner?.split(':')[1]);
  return replicas.find((r) => r.process.child.pid === pid);
}

/** The lease on each background duty that some process took: duty → holder's instance id, and when it expires. */
function leases() {
  return withPostgres(databaseUrl, async (db) => {
    const { rows } = await sql<{ name: string; owner: string; expires_at: number }>`
      select name, owner, expires_at::float8 as expires_at from leases order by name`.execute(db);
    return rows;
  });
}

/** The replica whose process runs the job (the owner id is host:pid:random). */
async function runnerOf(jobId: string): Promise<Replica> {
  const { owner } = await jobRow(jobId);
  const runner = replicaOf(owner);
  if (!runner) throw new Error(`job ${jobId} is owned by ${owner}, none of the replicas`);
  return runner;
}

async function importMemories(apiKeyId: string, n: number) {
  const memories = Array.from({ length: n }, (_, i) => ({ apiKeyId, key: `m${i}`, content: `I eat mango on day ${i}` }));
  await okAt(replicas[0]!.url, IMPORT_MEMORIES, { memories }, ADMIN);
}

beforeAll(async () => {
  const serverUrl = inject('postgresUrl')!;
  // An empty database: the replicas, started together, migrate it themselves.
  databaseUrl = await ensureDatabase(serverUrl, DATABASE);
  qdrant = await startQdrantDouble();
  models = topicModelDir();
  folders.push(models);
  replicas = await Promise.all(['A', 'B', 'C'].map(start));
  await okAt(replicas[0]!.url, ENABLE_QDRANT, undefined, ADMIN);
}, 120_000);

afterAll(async () => {
  for (const r of replicas ?? []) r.process.child.kill('SIGKILL');
  await Promise.all((replicas ?? []).map((r) => r.process.exited));
  await qdrant?.close();
  await dropDatabase(inject('postgresUrl')!, DATABASE);
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('three mnemo replicas on one PostgreSQL database', () => {
  it('keep one memory per key when 8 clients upsert the same keys through different replicas, with every acknowledged write in it', async () => {
    const KEYS = 5;
    const WRITES = 12;
    // Each write adds its client's entry to the memory's metadata (merged shallowly): a write lost in a race would
    // leave the client's entry behind its last acknowledged write.
    const acknowledged = new Map<string, Map<string, number>>();
    const ids = new Map<string, Set<string>>();
    await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        const url = replicas[client % replicas.length]!.url;
        for (let write = 0; write < WRITES; write++) {
          const key = `shared-${(client + write) % KEYS}`;
          const { createMemory } = await okAt(
            url,
            CREATE_MEMORY,
            {
              input: { apiKeyId: 'race', key, content: `client ${client} wrote ${write}`, metadata: { [`c${client}`]: write } },
            },
            ADMIN,
          );
          acknowledged.set(key, (acknowledged.get(key) ?? new Map()).set(`c${client}`, write));
          ids.set(key, (ids.get(key) ?? new Set()).add(createMemory.id));
        }
      }),
    );
    const { memories } = await okAt(replicas[2]!.url, LIST_MEMORIES, { apiKeyId: 'race', limit: 100 }, ADMIN);
    expect(memories.totalCount).toBe(KEYS);
    for (const memory of memories.items) {
      expect([...ids.get(memory.key)!]).toEqual([memory.id]);
      expect(memory.metadata).toEqual(Object.fromEntries(acknowledged.get(memory.key)!));
    }
  });

  it('see a settings change made on another replica without a restart', async () => {
    const [a, b, c] = replicas;
    const read = async (r: Replica) => (await okAt(r.url, GET_SETTINGS, undefined, ADMIN)).memorySettings;
    const before = (await read(b!)).maxTokens;
    await read(c!);
    await okAt(a!.url, UPDATE_SETTINGS, { input: { maxTokens: before + 7 } }, ADMIN);
    for (const r of [b!, c!]) await vi.waitFor(async () => expect((await read(r)).maxTokens).toBe(before + 7), { timeout: 5_000 });
  });

  it('refuse on replica C, at the next call, a token revoked on replica A', async () => {
    const [a, , c] = replicas;
    const { createAccessToken } = await okAt(
      a!.url,
      CREATE_TOKEN,
      { input: { name: 'revoked across replicas', apiKeyId: 'tokens' } },
      ADMIN,
    );
    expect((await graphqlAt(c!.url, VIEWER, {}, createAccessToken.token)).status).toBe(200);
    await okAt(a!.url, REVOKE_TOKEN, { id: createAccessToken.accessToken.id }, ADMIN);
    const refused = await graphqlAt(c!.url, VIEWER, {}, createAccessToken.token);
    expect(refused.status).toBe(401);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('run one reindex job at a time: replicas asked at once all answer with the same job', async () => {
    await importMemories('jobs', MEMORIES);
    const answers = await Promise.all(replicas.map((r) => okAt(r.url, START_REINDEX, { force: true }, ADMIN).then((d) => d.reindex.id)));
    expect(new Set(answers).size).toBe(1);
    const events = await subscribe(replicas[0]!.url, REINDEX_PROGRESS, { jobId: answers[0]! }, ADMIN).rest();
    expect(events.at(-1)?.data?.reindexProgress.status).toBe('COMPLETED');
  });

  it("show a job's progress in a subscription on a replica that does not run it", async () => {
    const [a, b] = replicas;
    const { reindex } = await okAt(a!.url, START_REINDEX, { force: true }, ADMIN);
    expect((await runnerOf(reindex.id)).name).toBe('A');
    const events = await subscribe(b!.url, REINDEX_PROGRESS, { jobId: reindex.id }, ADMIN).rest();
    const seen = events.map((e) => e.data!.reindexProgress);
    expect(seen.some((p) => p.status === 'RUNNING' && p.processed > 0)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'COMPLETED', processed: seen.at(-1)!.total });
  });

  it('resume a reindex job on another replica when the one running it is killed', async () => {
    const { reindex } = await okAt(replicas[0]!.url, START_REINDEX, { force: true }, ADMIN);
    const runner = await runnerOf(reindex.id);
    const others = replicas.filter((r) => r !== runner);
    const watcher = subscribe(others[0]!.url, REINDEX_PROGRESS, { jobId: reindex.id }, ADMIN);
    for (let e = await watcher.next(); e && (e.data?.reindexProgress.processed ?? 0) === 0; e = await watcher.next());
    runner.process.child.kill('SIGKILL');
    expect(await runner.process.exited).toBeNull();
    replicas = others;
    const events = await watcher.rest();
    expect(events.at(-1)?.data?.reindexProgress).toMatchObject({ status: 'COMPLETED' });
    const row = await jobRow(reindex.id);
    expect(row).toMatchObject({ status: 'completed', processed: row.total });
    expect(others.map((r) => r.name)).toContain((await runnerOf(reindex.id)).name);
  }, 120_000);

  it('hand their background duties to another replica when the one holding them is killed', async () => {
    // The purge, the audit retention and the database maintenance run at start: some replica took each; the worker and
    // auto-summarize have not asked yet (no worker in these replicas, an hour before the first summary pass).
    const before = await leases();
    expect(before.map((l) => l.name)).toEqual(['audit-retention', 'database-maintenance', 'purge']);
    // Held by a live replica (the previous test may have killed the one that held them: they moved on, or will).
    const holder = await vi.waitFor(
      async () => {
        const owner = (await leases()).find((l) => l.name === 'purge')?.owner ?? null;
        const replica = replicaOf(owner);
        if (!replica) throw new Error(`the purge is held by ${owner}, no live replica`);
        return replica;
      },
      { timeout: 40_000, interval: 500 },
    );
    holder.process.child.kill('SIGKILL');
    await holder.process.exited;
    const survivors = replicas.filter((r) => r !== holder);
    replicas = survivors;
    // Once the dead holder's leases expire (MNEMO_LEASE_SECONDS after its last renewal) a survivor's renewal round takes them.
    await vi.waitFor(
      async () => {
        const now = await leases();
        for (const lease of now) expect(survivors.map((r) => r.name)).toContain(replicaOf(lease.owner)?.name);
      },
      { timeout: 40_000, interval: 500 },
    );
  }, 60_000);
});
