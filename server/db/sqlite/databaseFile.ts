import { sql } from 'kysely';
import type { Db } from '../open.ts';

/** The file the database lives in; null for an in-memory one. */
export async function databaseFile(db: Db): Promise<string | null> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  return rows.find((r) => r.name === 'main')?.file || null;
}
