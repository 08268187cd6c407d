import { statSync } from 'node:fs';
import type { Db } from '../open.ts';
import type { StoreSize } from '../storeDialect.ts';
import { databaseFile } from './databaseFile.ts';

/** The database file and its write-ahead log, as they are on disk; nothing for an in-memory database. */
export async function storeSize(db: Db): Promise<StoreSize> {
  const main = await databaseFile(db);
  if (!main) return {};
  return { db: fileSize(main), wal: fileSize(`${main}-wal`) };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
