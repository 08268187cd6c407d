import { sql } from 'kysely';
import type { Db } from '../open.ts';

/** Adds [pk, count, lastAt] to each memory's access counter and last access, in one statement (a JSON list). */
export async function addMemoryAccess(db: Db, memories: readonly (readonly [number, number, number])[]) {
  await sql`update memories set access_count = access_count + a.count, last_accessed_at = max(coalesce(last_accessed_at, 0), a.last_at)
    from (select value ->> 0 as pk, value ->> 1 as count, value ->> 2 as last_at from json_each(${JSON.stringify(memories)})) as a
    where memories.pk = a.pk`.execute(db);
}

/** Adds [apiKeyId, retrievals, hits] to each key's retrieval statistics, in one statement. */
export async function addKeyRetrievals(db: Db, keys: readonly (readonly [string, number, number])[]) {
  await sql`insert into retrieval_stats (api_key_id, retrievals, hits)
    select value ->> 0, value ->> 1, value ->> 2 from json_each(${JSON.stringify(keys)}) where true
    on conflict (api_key_id) do update set retrievals = retrievals + excluded.retrievals, hits = hits + excluded.hits`.execute(db);
}
