import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type App, createApp } from '../../server/app.ts';
import { createLogger } from '../../server/logger.ts';
import { createServices, type Services } from '../../server/services.ts';
import type { VectorConfig } from '../../server/vectorConfig.ts';
import { type BenchStore, benchStoreKind, openBenchStore } from './benchStore.ts';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

export interface BenchDb {
  dir: string;
  file: string;
  database: BenchStore;
  services: Services;
  /** Rows in memories right now. */
  countMemories(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A real mnemo database in the run's store (a fresh SQLite file in a temp folder, or a fresh PostgreSQL database),
 * migrated, with the services a server builds. `vectorConfig` defaults to the offline configuration (no embedding
 * model: keyword search only); `copyOf` opens a copy of an existing SQLite database file instead of a fresh one.
 */
export async function openBenchDb(opts: { vectorConfig?: (dir: string) => VectorConfig; copyOf?: string } = {}): Promise<BenchDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-bench-'));
  const file = path.join(dir, 'mnemo.db');
  if (opts.copyOf) {
    if (benchStoreKind() !== 'sqlite') throw new Error('copyOf copies a SQLite file: --store sqlite only');
    copyFileSync(opts.copyOf, file);
  }
  const database = await openBenchStore(dir);
  const services = createServices({
    db: database.db,
    logger: createLogger('silent'),
    adminToken: BENCH_ADMIN_TOKEN,
    vectorConfig: opts.vectorConfig?.(dir),
  });
  return {
    dir,
    file,
    database,
    services,
    countMemories: async () => {
      const row = await database.db
        .selectFrom('memories')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    close: async () => {
      await services.access.flush();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface BenchHttp {
  url: string;
  /** The app behind url: `app.yoga.fetch` runs the same GraphQL pipeline without a socket. */
  app: App;
  /** One GraphQL operation over real HTTP as the admin; throws on any GraphQL or HTTP error. */
  gql<T = unknown>(query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/** The real HTTP app (yoga and all its plugins) on a free loopback port, in this process; `create`: another checkout's. */
export async function startHttp(services: Services, create: typeof createApp = createApp): Promise<BenchHttp> {
  const app = create(services);
  const address = await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` };
  return {
    url,
    app,
    gql: async <T>(query: string, variables?: Record<string, unknown>) => {
      const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
      if (!res.ok || body.errors?.length) {
        throw new Error(`HTTP ${res.status}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
      }
      // A 200 without errors carries data (GraphQL over HTTP).
      return body.data as T;
    },
    close: () => app.close(),
  };
}
