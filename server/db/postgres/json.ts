import { type RawBuilder, sql } from 'kysely';

/** The value at `path` of the JSON text in `column`, as text (null when absent), in PostgreSQL. */
export function jsonValue(column: string, path: readonly string[]): RawBuilder<unknown> {
  return sql`(${sql.ref(column)}::jsonb #>> ${path}::text[])`;
}

/** A JSON array parameter as a table of its elements (see StoreDialect.jsonArrayRows), in PostgreSQL. */
export function jsonArrayRows(json: string): RawBuilder<unknown> {
  return sql`jsonb_array_elements(cast(${json} as jsonb))`;
}
