import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { openPostgres } from '../../server/db/open.ts';
import { ensureDatabase, startPostgresCluster } from './postgres.ts';

/** The template every test database of the run is copied from: migrated once, then left without connections. */
export const TEMPLATE_DATABASE = 'mnemo_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the postgres project: the throwaway cluster's superuser URL. Absent: tests run on SQLite. */
    postgresUrl?: string;
  }
}

/** vitest globalSetup of the postgres project: one cluster for the run, with a migrated template database. */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  const template = openPostgres(await ensureDatabase(cluster.url, TEMPLATE_DATABASE), { poolSize: 1 });
  await migrateToLatest(template.db);
  await template.close();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
