import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { type OpenedStore, openDatabase, openPostgres } from '../../server/db/open.ts';
import type { StoreKind } from '../../server/db/storeDialect.ts';
import { dropDatabase, ensureDatabase, type PostgresCluster, startPostgresCluster } from '../../test/helpers/postgres.ts';

/**
 * The store every bench database of this run lives in (`--store`): a SQLite file in a temp folder, or a database of a
 * throwaway PostgreSQL 15 cluster started once per run on this machine (the same helper the tests use; durability
 * settings as in test/helpers/postgres.ts, so the PostgreSQL figures leave out fsync as the SQLite ones use
 * synchronous=NORMAL).
 */
let kind: StoreKind = 'sqlite';
let cluster: Promise<PostgresCluster> | null = null;
let databases = 0;

/** A bench store; `sqlite` is the SQLite file's raw handle, for the SQLite-only sections (seeding, vectors). */
export type BenchStore = OpenedStore & { sqlite: SQLite.Database };

export function useBenchStore(store: StoreKind) {
  kind = store;
}

export function benchStoreKind(): StoreKind {
  return kind;
}

export async function openBenchStore(dir: string): Promise<BenchStore> {
  if (kind === 'sqlite') {
    const database = openDatabase(path.join(dir, 'mnemo.db'));
    await migrateToLatest(database.db);
    return database;
  }
  cluster ??= startPostgresCluster();
  const { url } = await cluster;
  const name = `bench_${process.pid}_${databases++}`;
  const store = openPostgres(await ensureDatabase(url, name), { poolSize: 10 });
  await migrateToLatest(store.db);
  const close = store.close;
  return Object.defineProperties(store, {
    sqlite: {
      get() {
        throw new Error('this bench section reads the SQLite file directly: it runs with --store sqlite only');
      },
    },
    close: {
      value: async () => {
        await close();
        await dropDatabase(url, name);
      },
    },
  }) as BenchStore;
}

/** Stops the PostgreSQL cluster of the run, if one was started. */
export async function stopBenchStores() {
  if (cluster) (await cluster).stop();
  cluster = null;
}

/** The store's line in the machine description. */
export async function storeLine(store: BenchStore): Promise<string> {
  if (store.kind === 'sqlite') {
    const version = store.sqlite.prepare('select sqlite_version()').pluck().get() as string;
    return `sqlite   ${version} (better-sqlite3, WAL, synchronous=NORMAL, temp-dir file)`;
  }
  const { rows } = await sql<{ server_version: string }>`show server_version`.execute(store.db);
  return `postgres ${rows[0]!.server_version} (throwaway local cluster over TCP loopback, fsync=off, synchronous_commit=off, pool of 10)`;
}
