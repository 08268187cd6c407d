import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * Prepared statements for Kysely, reused by their SQL text, whose rows are read as arrays of values and made into
 * objects by a function built once for the statement's columns.
 *
 * Kysely prepares every query anew, and preparing costs several times more than running a typical statement here (an
 * upsert: ~0.7 ms against ~0.1 ms). Queries built by Kysely repeat the same SQL text with new parameters, so prepared
 * statements are reused by text. Safe because Kysely runs one query at a time on this connection.
 *
 * better-sqlite3 makes each row an object by setting its columns one by one, looking up each column's name as it goes:
 * 87 rows of a memory's 22 columns cost 0.46 ms that way, against 0.21 ms read as arrays and given their names by an
 * object literal compiled for the statement (the keyword tier reads such a head every retrieve).
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: 500 });
  return {
    close: () => sqlite.close(),
    prepare: (sql) => {
      // A schema change can change what `select *` returns: statements prepared before it are read with new names.
      if (SCHEMA_CHANGE.test(sql)) statements.clear();
      let statement = statements.get(sql);
      if (!statement) {
        statement = objectRows(sqlite.prepare(sql));
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;

type RowOf = (values: unknown[]) => Record<string, unknown>;

/** The statement as Kysely runs it, a reader's rows read as arrays and named by one compiled function. */
function objectRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement as unknown as SqliteStatement;
  const raw = statement.raw(true);
  let names: string[] = raw.columns().map((c) => c.name);
  let rowOf = compileRowOf(names);
  // SQLite prepares a statement again by itself after a schema change made on another connection; a different number
  // of values is how that shows here. A column renamed elsewhere would not show, but no other connection migrates
  // while a server runs: the data folder's lock keeps one server to a folder, and its workers run one version.
  const named = (values: unknown[]) => {
    if (values.length !== names.length) {
      names = raw.columns().map((c) => c.name);
      rowOf = compileRowOf(names);
    }
    return rowOf(values);
  };
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(named),
    run: (parameters) => raw.run(parameters),
    iterate: function* (parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield named(values);
    },
  };
}

/**
 * `(values) => ({ "pk": values[0], "id": values[1], … })` for these column names: V8 gives every row one shape at once.
 * A repeated name keeps its last value, as better-sqlite3's objects do; names are string literals, so any column name
 * is safe in it, and `__proto__` is written as a computed key, which makes an own property rather than a prototype.
 */
function compileRowOf(names: readonly string[]): RowOf {
  const fields = names.map((name, i) => {
    const key = JSON.stringify(name);
    return `${name === '__proto__' ? `[${key}]` : key}: values[${i}]`;
  });
  return new Function('values', `return { ${fields.join(', ')} };`) as RowOf;
}
