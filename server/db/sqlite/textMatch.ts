import { type RawBuilder, sql } from 'kysely';
import { pastPrefix } from '../prefixRange.ts';

/** `column` LIKE `pattern` (escape character `\`), ASCII letters in either case: SQLite's LIKE as it is. */
export function likeIgnoringAsciiCase(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/**
 * `column` starts with `prefix`, case-sensitive: a range of the column's byte order (BINARY collation), so an index
 * on it reads only the keys of the prefix. A LIKE ignoring case reads every key of the API key.
 */
export function startsWith(column: string, prefix: string): RawBuilder<boolean> {
  const past = pastPrefix(prefix);
  if (past === null) return sql<boolean>`${sql.ref(column)} >= ${prefix}`;
  return sql<boolean>`(${sql.ref(column)} >= ${prefix} and ${sql.ref(column)} < ${past})`;
}

/** `column` equals `value`, compared as startsWith compares, so that both read the same index. */
export function keyEquals(column: string, value: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} = ${value}`;
}
