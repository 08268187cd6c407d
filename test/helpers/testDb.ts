import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../server/logger.ts';
import { createServices, type Services } from '../../server/services.ts';
import { dropTestStore, openTestStore, type TestStore } from './testStore.ts';

export interface TestDb {
  dir: string;
  database: TestStore;
  services: Services;
  close(): Promise<void>;
}

/** A migrated store (SQLite file in a temp folder, or PostgreSQL in the postgres project) with the services on top, for tests below the GraphQL layer. */
export async function openTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-db-'));
  const database = await openTestStore(dir);
  const services = createServices({ db: database.db, logger: createLogger('silent') });
  return {
    dir,
    database,
    services,
    close: async () => {
      await services.access.flush();
      await database.close();
      await dropTestStore(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
