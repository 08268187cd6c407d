import { type RawBuilder, sql } from 'kysely';

/** The value at `path` of the JSON text in `column`, as text (null when absent), in PostgreSQL. */
export function jsonValue(column: string, path: readonly string[]): RawBuilder<unknown> {
  return sql`(${sql.ref(column)}::jsonb #>> ${path}::text[])`;
}
