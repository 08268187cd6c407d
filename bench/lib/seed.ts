import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { mergeKeywordIndex, optimizeDatabase } from '../../server/db/maintenance.ts';
import type { NewMemoryRow } from '../../server/db/schema.ts';
import { backfillFactSignatures } from '../../server/memory/factIndex.repository.ts';
import { contentKey } from '../../server/memory/memory.ts';
import { countTokens } from '../../server/tokenCount.ts';
import { type BenchStore, benchStoreKind } from './benchStore.ts';
import { pick, rng, sentence } from './text.ts';

const DAY = 86_400_000;
const TYPES = ['factual', 'factual', 'factual', 'episodic', 'episodic', 'semantic', 'procedural'] as const;
/**
 * Enforced memories are pinned rules that ride along with every retrieval, ahead of ranked ones: a key has a
 * few, not thousands. At one in eight they filled the whole block and no ranked memory was ever injected.
 */
const ENFORCED_SHARE = 0.002;

export interface SeedOptions {
  /** Rows to add. */
  count: number;
  /** How many API keys the rows are spread over (Zipf-like by default: key 00 is the largest tenant). */
  apiKeys: number;
  /** `zipf` (default): a few big tenants and a long tail; `round-robin`: every key gets the same number of rows (±1). */
  distribution?: 'zipf' | 'round-robin';
  /** created_at is spread uniformly over this many days before now. */
  days?: number;
  seed?: number;
  /** Rows per transaction. */
  batchSize?: number;
  /** Prints "seeding n/N" on stderr as one updating line; default: on for 20,000 rows or more. */
  progress?: boolean;
  now?: number;
  /**
   * What each row says, in place of a generated sentence of a random session and type: for a key of facts, as
   * extraction stores them (their keys, type and metadata; key-wide).
   */
  said?: (random: () => number) => Pick<NewMemoryRow, 'key' | 'content' | 'type' | 'metadata'>;
}

/** How seedMemories writes, for the benchmarks' notes. */
export function seedingMethod(): string {
  return benchStoreKind() === 'postgres'
    ? 'multi-row inserts, the keyword index kept by its triggers'
    : 'raw prepared statements, FTS triggers on';
}

export const apiKeyName = (i: number) => `bench-key-${String(i).padStart(2, '0')}`;

/** Share of rows each key gets: weight 1/(i+1), so a few big tenants and a long tail, as in real gateways. */
export function keyWeights(apiKeys: number): number[] {
  const raw = Array.from({ length: apiKeys }, (_, i) => 1 / (i + 1));
  const total = raw.reduce((s, x) => s + x, 0);
  return raw.map((w) => w / total);
}

/**
 * Adds `count` memories the way the service would store them (content keys, o200k token counts, keyword index via the
 * store's triggers) but without the service's validation or per-row awaits: on SQLite through better-sqlite3 prepared
 * statements, on PostgreSQL as multi-row inserts, `batchSize` rows per transaction. A generated sentence that
 * collides with an existing key is skipped and replaced, so exactly `count` rows are added. Returns the rows added per
 * API key.
 */
export async function seedMemories(store: BenchStore, opts: SeedOptions): Promise<Map<string, number>> {
  const { count, apiKeys, days = 25, seed = 1, batchSize = 5000, now = Date.now(), distribution = 'zipf' } = opts;
  const progress = opts.progress ?? count >= 20_000;
  const random = rng(seed);
  const cumulative: number[] = [];
  keyWeights(apiKeys).reduce((acc, w, i) => (cumulative[i] = acc + w), 0);
  const perKey = new Map<string, number>();
  let added = 0;
  // Rows are drawn one at a time and the key of each depends on how many were added: a skipped duplicate is
  // retried with the same key, since `added` did not move, so the shares come out exact.
  const chooseKey = (offset: number) => {
    if (distribution === 'round-robin') return (added + offset) % apiKeys;
    const r = random();
    const i = cumulative.findIndex((c) => r < c);
    return i === -1 ? apiKeys - 1 : i;
  };
  const nextRow = (offset: number): NewMemoryRow => {
    const apiKeyId = apiKeyName(chooseKey(offset));
    const said = opts.said?.(random);
    const content = said?.content ?? sentence(random);
    const createdAt = now - Math.floor(random() * days * DAY);
    const roll = random();
    // ~1% already expired (hidden from default lists), ~3% expiring later, the rest never.
    const expiresAt = roll < 0.01 ? now - Math.floor(random() * DAY) : roll < 0.04 ? now + Math.floor(random() * 30 * DAY) : null;
    const sessionId = random() < 0.6 ? `session-${Math.floor(random() * 500)}` : null;
    const metadata =
      random() < 0.5 ? '{}' : JSON.stringify({ source: pick(random, ['chat', 'import', 'extractor']), turn: Math.floor(random() * 40) });
    const row = {
      id: randomUUID(),
      api_key_id: apiKeyId,
      session_id: sessionId,
      type: random() < ENFORCED_SHARE ? 'enforced' : pick(random, TYPES),
      key: contentKey(content),
      content,
      metadata,
      tokens: countTokens(content),
      created_at: createdAt,
      updated_at: createdAt,
      valid_from: createdAt,
      expires_at: expiresAt,
      needs_reindex: 1,
      access_count: Math.floor(random() * 5),
    } satisfies NewMemoryRow;
    return said ? { ...row, ...said, session_id: null } : row;
  };
  const counted = (inserted: readonly string[]) => {
    for (const key of inserted) perKey.set(key, (perKey.get(key) ?? 0) + 1);
    added += inserted.length;
  };
  const lastPk = await store.db
    .selectFrom('memories')
    .select((eb) => eb.fn.max('pk').as('pk'))
    .executeTakeFirstOrThrow();
  const writer = store.kind === 'sqlite' ? sqliteWriter(store.sqlite, nextRow, counted) : postgresWriter(store, nextRow, counted);
  try {
    while (added < count) {
      await writer.batch(Math.min(count, added + batchSize), () => added);
      if (progress) process.stderr.write(`\rseeding ${added}/${count}`);
    }
  } finally {
    writer.done();
  }
  // The rows are written around the server's write path: the fact index it keeps with each memory is filled here.
  await backfillFactSignatures(store.db, { after: Number(lastPk.pk ?? 0) });
  if (progress) process.stderr.write(process.stderr.isTTY ? '\r\x1b[K' : '\n');
  return perKey;
}

type NextRow = (offset: number) => NewMemoryRow;
type Counted = (apiKeyIds: readonly string[]) => void;

function sqliteWriter(sqlite: SQLite.Database, nextRow: NextRow, counted: Counted) {
  const insert = sqlite.prepare(`insert into memories
    (id, api_key_id, session_id, type, key, content, metadata, tokens, created_at, updated_at, expires_at, needs_reindex, access_count)
    values (@id, @api_key_id, @session_id, @type, @key, @content, @metadata, @tokens, @created_at, @updated_at, @expires_at, @needs_reindex, @access_count)
    on conflict (api_key_id, key) do nothing`);
  const insertBatch = sqlite.transaction((target: number, added: () => number) => {
    while (added() < target) {
      const row = nextRow(0);
      if (insert.run(row).changes === 1) counted([row.api_key_id]);
    }
  });
  // A bigger page cache while seeding only (setup, not measurement): with the default 2 MB, inserts into ten
  // random-order indexes at 100k rows spend most of their time re-reading pages. Restored after.
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('cache_size = -262144');
  return {
    batch: async (target: number, added: () => number) => insertBatch(target, added),
    done: () => {
      sqlite.pragma(`cache_size = ${cacheSize}`);
      // A server that has been running for a while has a checkpointed WAL; do not measure reads against a freshly
      // bloated one.
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    },
  };
}

function postgresWriter(store: BenchStore, nextRow: NextRow, counted: Counted) {
  return {
    batch: async (target: number, added: () => number) => {
      while (added() < target) {
        const rows = Array.from({ length: Math.min(1000, target - added()) }, (_, i) => nextRow(i));
        const inserted = await store.db
          .insertInto('memories')
          .values(rows)
          .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
          .returning('api_key_id')
          .execute();
        counted(inserted.map((r) => r.api_key_id));
      }
    },
    done: () => {},
  };
}

/** Whether VACUUM has marked every page of the PostgreSQL keyword postings and memories all-visible. */
async function allVisible(store: BenchStore): Promise<boolean> {
  const { rows } = await sql<{ pages: number; visible: number }>`select relpages as pages, relallvisible as visible
    from pg_class where relname in ('memory_postings', 'memories')`.execute(store.db);
  return rows.length === 2 && rows.every((r) => r.pages > 0 && r.visible === r.pages);
}

/**
 * What a server does at start and every hour (optimizeDatabase): PRAGMA optimize, which runs ANALYZE where
 * statistics are missing or stale, and merging the keyword index's segments. A benchmark database seeded after
 * it was opened has no statistics, and without sqlite_stat1 the planner picks worse plans for some queries than
 * a server that has been up for an hour would (see the notes). The merge runs to the end here; a server does
 * it in bounded steps, hour after hour.
 */
export async function analyzeLikeAServer(store: BenchStore): Promise<void> {
  if (store.kind === 'postgres') {
    // What autovacuum's analyze would have done on a server up for a while, and the server's own hourly upkeep, which
    // finds the rows written well before it: VACUUM leaves a page unmarked while its rows are too new for every
    // transaction to see (a moment after their commit here), so it runs again until every page is marked.
    await sql`analyze`.execute(store.db);
    for (let attempt = 0; attempt < 40; attempt++) {
      await optimizeDatabase(store.db);
      if (await allVisible(store)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return;
  }
  store.sqlite.pragma('optimize = 0x10002');
  await mergeKeywordIndex(store.db);
}
