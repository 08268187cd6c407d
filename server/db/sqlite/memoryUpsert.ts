import { sql } from 'kysely';

/**
 * The upsert's metadata on a clash of (api key, key), in SQLite: the stored object with the new one's top-level keys
 * replacing its own, rebuilt key by key since SQLite has no object merge.
 */
export const mergedMetadata = sql<string>`(
  select json_group_object(k, json(v)) from (
    select key as k, memories.metadata -> fullkey as v from json_each(memories.metadata)
      where key not in (select key from json_each(excluded.metadata))
    union all
    select key, excluded.metadata -> fullkey from json_each(excluded.metadata)
  ))`;
