import type { Db } from '../open.ts';
import { inScope, type RetrievalScope } from '../scope.ts';

/**
 * The key's newest memories in scope (EXACT) on SQLite: one statement, which its planner, knowing the key's size from
 * its statistics, answers by walking the (API key, updated) index newest first until it has `limit` in scope.
 */
export function newestInScope(db: Db, scope: RetrievalScope, limit: number) {
  return db
    .selectFrom('memories')
    .selectAll()
    .where((eb) => inScope(eb, scope))
    .orderBy('updated_at', 'desc')
    .orderBy('pk', 'desc')
    .limit(limit)
    .execute();
}
