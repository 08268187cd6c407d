import { type RawBuilder, sql } from 'kysely';

/** `column` LIKE `pattern` (escape character `\`), ASCII letters in either case: SQLite's LIKE as it is. */
export function likeIgnoringAsciiCase(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}
