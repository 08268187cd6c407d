import { type RawBuilder, sql } from 'kysely';
import { pastPrefix } from '../prefixRange.ts';

/**
 * `column` LIKE `pattern` (escape character `\`), ASCII letters in either case, as SQLite's LIKE: ILIKE folds case with
 * its collation's lower(), which under "C" folds ASCII letters only (under a Unicode locale 'É' would match 'é').
 */
export function likeIgnoringAsciiCase(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} collate "C" ilike ${pattern} escape '\\'`;
}

/**
 * `column` starts with `prefix`, case-sensitive: a range of its byte order (collation "C", whatever the database's), as
 * the index memories_key_bytes (migration 013) holds the keys, so only the keys of the prefix are read.
 */
export function startsWith(column: string, prefix: string): RawBuilder<boolean> {
  const past = pastPrefix(prefix);
  if (past === null) return sql<boolean>`${sql.ref(column)} collate "C" >= ${prefix}`;
  return sql<boolean>`(${sql.ref(column)} collate "C" >= ${prefix} and ${sql.ref(column)} collate "C" < ${past})`;
}

/** `column` equals `value`, compared as startsWith compares, so that both read the same index. */
export function keyEquals(column: string, value: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} collate "C" = ${value}`;
}
