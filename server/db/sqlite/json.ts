import { type RawBuilder, sql } from 'kysely';

/** The value at `path` of the JSON text in `column`, as an SQL value (null when absent), in SQLite. */
export function jsonValue(column: string, path: readonly string[]): RawBuilder<unknown> {
  return sql`json_extract(${sql.ref(column)}, ${`$${path.map((p) => `.${JSON.stringify(p)}`).join('')}`})`;
}

/** A JSON array parameter as a table of its elements (see StoreDialect.jsonArrayRows), in SQLite. */
export function jsonArrayRows(json: string): RawBuilder<unknown> {
  return sql`json_each(${json})`;
}
