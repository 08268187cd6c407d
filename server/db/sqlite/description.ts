import { sql } from 'kysely';
import type { Db } from '../open.ts';
import type { StoreDescription } from '../storeDialect.ts';
import { databaseFile } from './databaseFile.ts';

/** The SQLite store: its file and SQLite's version. */
export async function describe(db: Db): Promise<StoreDescription> {
  const { rows } = await sql<{ version: string }>`select sqlite_version() as version`.execute(db);
  return { kind: 'sqlite', file: await databaseFile(db), host: null, port: null, database: null, version: rows[0]!.version };
}
