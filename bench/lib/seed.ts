import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { mergeKeywordIndex } from '../../server/db/maintenance.ts';
import type { OpenedDatabase } from '../../server/db/open.ts';
import { contentKey } from '../../server/memory/memory.ts';
import { countTokens } from '../../server/tokenCount.ts';
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
}

export const apiKeyName = (i: number) => `bench-key-${String(i).padStart(2, '0')}`;

/** Share of rows each key gets: weight 1/(i+1), so a few big tenants and a long tail, as in real gateways. */
export function keyWeights(apiKeys: number): number[] {
  const raw = Array.from({ length: apiKeys }, (_, i) => 1 / (i + 1));
  const total = raw.reduce((s, x) => s + x, 0);
  return raw.map((w) => w / total);
}

/**
 * Adds `count` memories straight through better-sqlite3 prepared statements, in transactions, the way the
 * service would store them (content keys, o200k token counts, FTS via the triggers) but without Kysely,
 * zod or per-row awaits. A generated sentence that collides with an existing key is skipped and replaced,
 * so exactly `count` rows are added. Returns the rows added per API key.
 */
export function seedMemories(sqlite: SQLite.Database, opts: SeedOptions): Map<string, number> {
  const { count, apiKeys, days = 25, seed = 1, batchSize = 5000, now = Date.now(), distribution = 'zipf' } = opts;
  const progress = opts.progress ?? count >= 20_000;
  const random = rng(seed);
  const cumulative: number[] = [];
  keyWeights(apiKeys).reduce((acc, w, i) => (cumulative[i] = acc + w), 0);
  let added = 0;
  const chooseKey = () => {
    // A skipped duplicate is retried with the same key, since `added` did not move: exact shares.
    if (distribution === 'round-robin') return added % apiKeys;
    const r = random();
    const i = cumulative.findIndex((c) => r < c);
    return i === -1 ? apiKeys - 1 : i;
  };
  const insert = sqlite.prepare(`insert into memories
    (id, api_key_id, session_id, type, key, content, metadata, tokens, created_at, updated_at, expires_at, needs_reindex, access_count)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
    on conflict (api_key_id, key) do nothing`);
  const perKey = new Map<string, number>();
  const insertBatch = sqlite.transaction((target: number) => {
    while (added < target) {
      const key = apiKeyName(chooseKey());
      const content = sentence(random);
      const createdAt = now - Math.floor(random() * days * DAY);
      const roll = random();
      // ~1% already expired (hidden from default lists), ~3% expiring later, the rest never.
      const expiresAt = roll < 0.01 ? now - Math.floor(random() * DAY) : roll < 0.04 ? now + Math.floor(random() * 30 * DAY) : null;
      const sessionId = random() < 0.6 ? `session-${Math.floor(random() * 500)}` : null;
      const metadata =
        random() < 0.5 ? '{}' : JSON.stringify({ source: pick(random, ['chat', 'import', 'extractor']), turn: Math.floor(random() * 40) });
      const result = insert.run(
        randomUUID(),
        key,
        sessionId,
        random() < ENFORCED_SHARE ? 'enforced' : pick(random, TYPES),
        contentKey(content),
        content,
        metadata,
        countTokens(content),
        createdAt,
        createdAt,
        expiresAt,
        Math.floor(random() * 5),
      );
      if (result.changes === 1) {
        added++;
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
      }
    }
  });
  const tty = process.stderr.isTTY;
  // A bigger page cache while seeding only (setup, not measurement): with the default 2 MB, inserts into
  // ten random-order indexes at 100k rows spend most of their time re-reading pages. Restored after.
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('cache_size = -262144');
  try {
    while (added < count) {
      insertBatch(Math.min(count, added + batchSize));
      if (progress) process.stderr.write(`\rseeding ${added}/${count}`);
    }
  } finally {
    sqlite.pragma(`cache_size = ${cacheSize}`);
  }
  if (progress) process.stderr.write(tty ? '\r\x1b[K' : '\n');
  // A server that has been running for a while has a checkpointed WAL; do not measure reads against a
  // freshly bloated one.
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return perKey;
}

/**
 * What a server does at start and every hour (optimizeDatabase): PRAGMA optimize, which runs ANALYZE where
 * statistics are missing or stale, and merging the keyword index's segments. A benchmark database seeded after
 * it was opened has no statistics, and without sqlite_stat1 the planner picks worse plans for some queries than
 * a server that has been up for an hour would (see the notes). The merge runs to the end here; a server does
 * it in bounded steps, hour after hour.
 */
export async function analyzeLikeAServer(database: OpenedDatabase): Promise<void> {
  database.sqlite.pragma('optimize = 0x10002');
  await mergeKeywordIndex(database.db);
}
