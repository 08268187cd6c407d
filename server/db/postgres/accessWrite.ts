import { sql } from 'kysely';
import type { Db } from '../open.ts';

/**
 * Adds [pk, count, lastAt] to each memory's access counter and last access, in one statement (arrays unnested). The
 * rows are locked in pk order first: replicas flush overlapping batches at the same time, and two updates that lock
 * the same rows in different orders would deadlock.
 */
export async function addMemoryAccess(db: Db, memories: readonly (readonly [number, number, number])[]) {
  const pks = memories.map((m) => m[0]);
  await sql`select pk from memories where pk = any(${pks}::bigint[]) order by pk for update`.execute(db);
  await sql`update memories set access_count = memories.access_count + a.count,
      last_accessed_at = greatest(coalesce(memories.last_accessed_at, 0), a.last_at)
    from unnest(${pks}::bigint[], ${memories.map((m) => m[1])}::integer[], ${memories.map((m) => m[2])}::bigint[]) as a(pk, count, last_at)
    where memories.pk = a.pk`.execute(db);
}

/** Adds [apiKeyId, retrievals, hits] to each key's retrieval statistics, in one statement, in key order (see above). */
export async function addKeyRetrievals(db: Db, keys: readonly (readonly [string, number, number])[]) {
  await sql`insert into retrieval_stats (api_key_id, retrievals, hits)
    select * from unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::bigint[], ${keys.map((k) => k[2])}::bigint[])
      as k(api_key_id, retrievals, hits) order by api_key_id
    on conflict (api_key_id) do update set retrievals = retrieval_stats.retrievals + excluded.retrievals,
      hits = retrieval_stats.hits + excluded.hits`.execute(db);
}
