import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createApp } from '../../server/app.ts';
import type { Db } from '../../server/db/open.ts';
import type { StoreKind } from '../../server/db/storeDialect.ts';
import type { retrieve } from '../../server/retrieval/retrieval.service.ts';
import type { Services } from '../../server/services.ts';
import { BENCH_ADMIN_TOKEN, type BenchDb } from './benchDb.ts';

/**
 * Another version of mnemo, to compare in the same run as this one: BENCH_BASE_ROOT names a checkout of it (its
 * node_modules beside it). Its code runs over this run's database: its store's dialect is bound to the database this
 * checkout opened and its services are built on it, so both versions read the same rows, the same pages, in turns.
 * Only for versions with the same migrations.
 */
export interface OtherCheckout {
  /** What the tables call it: the folder's name. */
  name: string;
  retrieve: typeof retrieve;
  /** Its HTTP app (yoga and its plugins), for its services. */
  createApp: typeof createApp;
  servicesOn(db: Db, kind: StoreKind): Services;
  /** Waits for its own keyword postings of the key, as this checkout's bench does for its own; a version without does not. */
  keywordPostingsBuilt(db: BenchDb, apiKeyId: string): Promise<unknown>;
}

export async function otherCheckout(): Promise<OtherCheckout | null> {
  const root = process.env.BENCH_BASE_ROOT;
  if (!root) return null;
  const load = (file: string) => import(pathToFileURL(path.resolve(root, file)).href);
  const [{ retrieve }, { createApp }, { createServices }, { bindStoreDialect }, { sqliteDialect }, { postgresDialect }, { createLogger }] =
    await Promise.all([
      load('server/retrieval/retrieval.service.ts'),
      load('server/app.ts'),
      load('server/services.ts'),
      load('server/db/storeDialect.ts'),
      load('server/db/sqlite/dialect.ts'),
      load('server/db/postgres/dialect.ts'),
      load('server/logger.ts'),
    ]);
  const postings = existsSync(path.resolve(root, 'bench/lib/keywordPostings.ts')) ? await load('bench/lib/keywordPostings.ts') : null;
  return {
    name: path.basename(path.resolve(root)),
    keywordPostingsBuilt: async (db, apiKeyId) => postings?.keywordPostingsBuilt(db, apiKeyId),
    retrieve,
    createApp,
    servicesOn: (db, kind) => {
      bindStoreDialect(db, kind === 'sqlite' ? sqliteDialect : postgresDialect);
      // The bench's admin token, as this checkout's services have it: its HTTP app takes the same calls.
      return createServices({ db, logger: createLogger('silent'), adminToken: BENCH_ADMIN_TOKEN });
    },
  };
}
