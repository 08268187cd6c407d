import type { StoreKind } from '../../server/db/storeDialect.ts';

/** A benchmark section: one named part of `npm run bench`, selectable with --only. */
export interface BenchSection {
  /** Selects it with --only (the group selects every section in it). */
  name: string;
  group: string;
  description: string;
  /** The stores it runs on (default: SQLite only, for sections that measure SQLite's own parts or seed its file). */
  stores?: readonly StoreKind[];
  run(ctx: BenchContext): Promise<void>;
}

export interface BenchContext {
  /** --quick: small sizes, for a smoke run. */
  quick: boolean;
  /** --full: the largest sizes, too slow for the default run (e.g. 1M memories over 1,000 keys). */
  full: boolean;
  /** --workers: the MNEMO_WORKERS values that the load sections compare, side by side (default 1 and 2). */
  workers: readonly number[];
}
