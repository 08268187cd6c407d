import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { type OpenedDatabase, openDatabase } from '../../server/db/open.ts';
import { createLogger } from '../../server/logger.ts';
import { createServices, type Services } from '../../server/services.ts';

export interface TestDb {
  dir: string;
  database: OpenedDatabase;
  services: Services;
  close(): Promise<void>;
}

/** A migrated SQLite file in a temp folder with the services on top, for tests below the GraphQL layer. */
export async function openTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-db-'));
  const database = openDatabase(path.join(dir, 'mnemo.db'));
  await migrateToLatest(database.db);
  const services = createServices({ db: database.db, logger: createLogger('silent') });
  return {
    dir,
    database,
    services,
    close: async () => {
      await services.access.flush();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
