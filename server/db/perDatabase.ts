import type { Db } from './open.ts';

/**
 * One `T` per database, made at its first use: Kysely's instances for a database (its transactions, its plugins) share
 * their dialect's adapter, and nothing else of theirs says which database they are.
 */
export function perDatabase<T>(create: () => T): (db: Db) => T {
  const made = new WeakMap<object, T>();
  return (db) => {
    const adapter = db.getExecutor().adapter;
    let value = made.get(adapter);
    if (value === undefined) {
      value = create();
      made.set(adapter, value);
    }
    return value;
  };
}
