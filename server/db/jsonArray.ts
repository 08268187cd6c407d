import { sql } from 'kysely';
import type { Db } from './open.ts';
import { storeKind } from './store.ts';

/**
 * A JSON array parameter as a table of its elements, one column `value` (each element as JSON, so `value ->> 0` reads
 * an inner array on both stores): one statement text whatever the array's length.
 */
export function jsonArrayRows(db: Db, json: string) {
  return { sqlite: sql`json_each(${json})`, postgres: sql`jsonb_array_elements(cast(${json} as jsonb))` }[storeKind(db)];
}
