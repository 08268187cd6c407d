import { type RawBuilder, sql } from 'kysely';

/**
 * `column` LIKE `pattern` (escape character `\`), ASCII letters in either case, as SQLite's LIKE: ILIKE folds case with
 * its collation's lower(), which under "C" folds ASCII letters only (under a Unicode locale 'É' would match 'é').
 */
export function likeIgnoringAsciiCase(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} collate "C" ilike ${pattern} escape '\\'`;
}
