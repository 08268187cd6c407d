import type { Db } from '../open.ts';
import { firstInScope } from '../rankedHead.ts';
import type { MemoryRow } from '../schema.ts';
import { inScope, type RetrievalScope } from '../scope.ts';

/**
 * The key's newest memories in scope (EXACT) on PostgreSQL: the key's newest rows a head at a time (firstInScope), read
 * from the (API key, updated, pk) index alone, and of them those in scope. PostgreSQL keeps no statistics of keys, so
 * asked in one statement its planner took every key for a small one and sorted all of its rows (11–12 ms at 10,000
 * memories of a key, 70–73 ms at 100,000).
 */
export function newestInScope(db: Db, scope: RetrievalScope, limit: number): Promise<MemoryRow[]> {
  return firstInScope(limit, async (head) => {
    const newest = db
      .selectFrom('memories')
      .select('pk')
      .where('api_key_id', '=', scope.apiKeyId)
      .orderBy('updated_at', 'desc')
      .orderBy('pk', 'desc')
      .limit(head);
    const rows = await db
      .selectFrom('memories')
      .selectAll()
      .select((eb) => inScope(eb, scope, { byPk: true }).as('inScope'))
      .where('pk', 'in', newest)
      .orderBy('updated_at', 'desc')
      .orderBy('pk', 'desc')
      .execute();
    return { rows: rows.filter((row) => row.inScope), exhausted: rows.length < head };
  });
}
