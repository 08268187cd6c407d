import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, type Logger } from '../../server/logger.ts';
import { createServices, type Services } from '../../server/services.ts';
import type { VectorConfig } from '../../server/vectorConfig.ts';
import { dropTestStore, openTestStore, type TestStore } from './testStore.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestDbOptions {
  /** The vector engine's configuration; by default the offline one (no model, no worker). */
  engine?: VectorConfig;
  /** The environment the services read (MNEMO_QDRANT_*); by default none. */
  env?: NodeJS.ProcessEnv;
  /** The services' clock (every timestamp, delay and cutoff they use); a test moves it instead of waiting (helpers/clock.ts). */
  clock?: () => number;
  /** An existing folder to use (its mnemo.db is opened, not replaced); by default a fresh temp folder. */
  dir?: string;
  /** Where backupDatabase writes; by default none, so it is refused. */
  backupDir?: string;
  /** Where the services log; by default nowhere. */
  logger?: Logger;
}

export interface TestDb {
  dir: string;
  database: TestStore;
  services: Services;
  close(): Promise<void>;
}

/**
 * A migrated store (a SQLite file in a temp folder, or PostgreSQL in the postgres project) with the services on top,
 * built the one way every test builds them: tests below the GraphQL layer use it directly, startTestApp serves it.
 */
export async function openTestDb(options: TestDbOptions = {}): Promise<TestDb> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'mnemo-test-'));
  const database = await openTestStore(dir);
  const services = createServices({
    db: database.db,
    logger: options.logger ?? createLogger('silent'),
    adminToken: ADMIN_TOKEN,
    vectorConfig: options.engine,
    env: options.env,
    clock: options.clock,
    backupDir: options.backupDir,
  });
  return {
    dir,
    database,
    services,
    close: async () => {
      await services.access.flush();
      await database.close();
      // A folder the caller passed in is the caller's: another app may open the same database after this one.
      if (!options.dir) {
        await dropTestStore(dir);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
