import { type RawBuilder, sql } from 'kysely';

/**
 * Row limits are written into the SQL text, not bound as parameters. SQLite's planner reads the value bound to a
 * LIMIT or OFFSET parameter, so binding one marks the prepared statement stale and every run prepares it again: the
 * statement cache saves nothing for it. That costs what preparing costs, every run: 20 µs for a short select, 130 µs
 * for the keyword search at 10k memories, 170 µs for extraction's candidate read with its twenty key ranges (each
 * against the same statement with the number written in). A number in the text is prepared once per value, and the
 * values in use are few. PostgreSQL plans either alike.
 */

/** A row limit in a SQL template: `limit ${rowCount(n)}`. */
export function rowCount(n: number): RawBuilder<number> {
  if (!isRowCount(n)) throw new RangeError(`a row count is a whole number of rows, not ${n}`);
  return sql.lit(n);
}

/** A whole number of rows, or -1 (SQLite's "no limit"). */
export const isRowCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= -1;
