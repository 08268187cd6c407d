import type { Db } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';

/**
 * Who writes to memories and why, as the versions the history trigger keeps name them (migrations 020 and 008). The
 * trigger records every change of content, type, metadata or expiry whatever path made it; a path that says nothing is
 * recorded as by 'system', why 'update'. This is how a path says more.
 */
export interface Change {
  /** A token's id, or one of the authors below. */
  by: string;
  why: string;
}

/** The authors that are not a token. */
export const AUTHORS = {
  /** The extraction rules or model, writing what a conversation said. */
  extraction: 'extraction',
  /** importMemories. */
  import: 'import',
  /** The MNEMO_ADMIN_TOKEN, which has no token id. */
  admin: 'admin',
  /** mnemo's own upkeep (summary rebuilds, links between turns and facts). */
  system: 'system',
} as const;

/** The author of a caller's change: its token, or 'admin' for the environment's admin token. */
export function authorOf(viewer: { tokenId: string | null }): string {
  return viewer.tokenId ?? AUTHORS.admin;
}

/**
 * Runs `write` as `change` at `at` (the services' clock; the database's when absent): every memory it changes keeps its
 * previous version with this author and reason. In the caller's transaction, or else on a connection held for the
 * write alone, without a transaction: a single statement (an upsert) stays one, and holds no lock across awaits that
 * a writer on another connection would wait for. Nested calls take over for their own writes and give the context
 * back when done.
 */
export function changing<T>(db: Db, change: Change & { at?: number }, write: (trx: Db) => Promise<T>): Promise<T> {
  const run = (conn: Db) => storeDialect(conn).withChange(conn, change, () => write(conn));
  return db.isTransaction ? run(db) : db.connection().execute(run);
}
