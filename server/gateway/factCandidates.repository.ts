import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import { rowCount } from '../db/rowCount.ts';
import type { MemoryRow } from '../db/schema.ts';
import { storeDialect } from '../db/storeDialect.ts';
import type { HeldMemory } from '../memory/supersession.service.ts';
import type { CandidateKeys } from './supersessionRules.ts';

/** The most current memories read for one fact: the newest of its keys, when a key holds more. */
export const MAX_CANDIDATES = 200;

/** A key's later versions (supersessionRules.versionOf): a fact that supersedes the memory holding its key is written as `key~v2`, then `~v3`. */
export const VERSION = '~v';

/** What one new fact asks of the key's memories: its candidates (supersessionRules.candidateKeys) and its own key. */
export interface FactLookup extends CandidateKeys {
  key: string;
}

/** A memory as a fact's lookup reads it: what the rules read, and what a supersession decides on (`held`). */
export interface FactRow extends HeldMemory {
  key: string;
  content: string;
  metadata: Record<string, unknown>;
  updatedAt: number;
}

/**
 * The memories of one API key that these facts' lookups name, in one statement: the current memories of each fact's
 * keys or their later versions, or whose key starts with one of its prefixes (as written: the rules read only keys in
 * their own spelling), archived ones left out (a summary holds their text now); and the memories holding each fact's
 * own `key` or one of its versions, whatever their state (the next version is numbered from them). Those of a fact's
 * own key first, then the current ones, the most recently updated first, at most MAX_CANDIDATES (and a holder) per
 * lookup: `complete` is false when the read stopped there, and a lookup's newest, or a version, may then be missing.
 */
export async function factRows(db: Db, apiKeyId: string, lookups: readonly FactLookup[]): Promise<{ rows: FactRow[]; complete: boolean }> {
  const { startsWith, keyEquals } = storeDialect(db);
  const own = [...new Set(lookups.map((l) => l.key))];
  const keys = [...new Set(lookups.flatMap((l) => l.keys))];
  const prefixes = [...new Set(lookups.flatMap((l) => l.prefixes))];
  // Each key and prefix its own range of the (api key, key) index, read as one condition: no index holds the order (its
  // first term an expression), so neither planner walks the key's rows in updated_at order instead.
  const versions = own.map((k) => startsWith('key', `${k}${VERSION}`));
  const ranges = [
    ...[...new Set([...own, ...keys])].map((k) => keyEquals('key', k)),
    ...keys.filter((k) => !own.includes(k)).map((k) => startsWith('key', `${k}${VERSION}`)),
    ...versions,
    ...prefixes.map((prefix) => startsWith('key', prefix)),
  ];
  const limit = (MAX_CANDIDATES + 1) * lookups.length;
  // Written as SQL, not built: every extracted fact asks it, and building it with the query builder cost about as much
  // as SQLite running it.
  const { rows } = await sql<Pick<MemoryRow, keyof HeldMemory | 'key' | 'content' | 'metadata' | 'updated_at'>>`
    select pk, id, key, content, metadata, valid_from, valid_to, superseded_by, archived_by, updated_at from memories
    where api_key_id = ${apiKeyId} and (${sql.join(ranges, sql` or `)})
      and ((valid_to is null and archived_by is null) or key in (${sql.join(own)}) or ${sql.join(versions, sql` or `)})
    order by key in (${sql.join(own)}) desc, valid_to is null and archived_by is null desc, updated_at desc
    limit ${rowCount(limit)}`.execute(db);
  return {
    rows: rows.map((r) => ({
      pk: r.pk,
      id: r.id,
      key: r.key,
      content: r.content,
      metadata: JSON.parse(r.metadata) as Record<string, unknown>,
      valid_from: r.valid_from,
      valid_to: r.valid_to,
      superseded_by: r.superseded_by,
      archived_by: r.archived_by,
      updatedAt: r.updated_at,
    })),
    complete: rows.length < limit,
  };
}

/** The next version of a key whose memory no longer holds (or is about to stop): one past the highest in use. */
export async function nextVersion(db: Db, apiKeyId: string, key: string): Promise<string> {
  const rows = await db
    .selectFrom('memories')
    .select('key')
    .where('api_key_id', '=', apiKeyId)
    .where(storeDialect(db).startsWith('key', `${key}${VERSION}`))
    .execute();
  return versionAfter(
    key,
    rows.map((r) => r.key),
  );
}

/** The version of `key` after the highest among `keys` (the key itself is its first version). */
export function versionAfter(key: string, keys: Iterable<string>): string {
  let highest = 1;
  for (const k of keys) {
    if (k.startsWith(`${key}${VERSION}`)) highest = Math.max(highest, Number(/~v(\d+)$/u.exec(k)?.[1] ?? 1));
  }
  return `${key}${VERSION}${highest + 1}`;
}
