import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { MemoryRow } from '../db/schema.ts';
import { storeDialect } from '../db/storeDialect.ts';
import type { HeldMemory } from '../memory/supersession.service.ts';
import type { CandidateKeys, StoredFact } from './supersessionRules.ts';

/** The most current memories read for one fact: the newest of its keys, when a key holds more. */
const MAX_CANDIDATES = 200;

/** A key's later versions (supersessionRules.versionOf): a fact that supersedes the memory holding its key is written as `key~v2`, then `~v3`. */
const VERSION = '~v';

/**
 * The current memories of one API key that a new fact may supersede (supersessionRules.candidateKeys): those of its
 * keys or their later versions, and those whose key starts with one of its prefixes (as written: the rules read only
 * keys in their own spelling). Archived ones are left out: a summary holds their text now. With them, in the same
 * statement, the memory that holds the fact's own `key` whatever its state, if any: whether the key is free for the
 * fact (keyFree). Each current memory comes `held` as a supersession decides on it (supersession.service.ts).
 */
export async function factsByKeys(
  db: Db,
  apiKeyId: string,
  { keys, prefixes }: CandidateKeys,
  key: string,
): Promise<{ current: (StoredFact & { validFrom: number; held: HeldMemory })[]; keyHolder: KeyHolder | null }> {
  const { startsWith, keyEquals } = storeDialect(db);
  // Each key and prefix its own range of the (api key, key) index, read as one condition: no index holds the order (its
  // first term an expression), so neither planner walks the key's rows in updated_at order instead.
  const ranges = [
    ...[...new Set([key, ...keys])].map((k) => keyEquals('key', k)),
    ...keys.map((k) => startsWith('key', `${k}${VERSION}`)),
    ...prefixes.map((prefix) => startsWith('key', prefix)),
  ];
  // Written as SQL, not built: every extracted fact asks it, and building it with the query builder cost about as much
  // as SQLite running it.
  const { rows } = await sql<Pick<MemoryRow, keyof HeldMemory | 'key' | 'content' | 'metadata'>>`
    select pk, id, key, content, metadata, valid_from, valid_to, superseded_by, archived_by from memories
    where api_key_id = ${apiKeyId} and (${sql.join(ranges, sql` or `)})
      and ((valid_to is null and archived_by is null) or key = ${key})
    order by key = ${key} desc, updated_at desc
    limit ${MAX_CANDIDATES + 1}`.execute(db);
  const holder = rows[0]?.key === key ? rows[0] : undefined;
  const current = rows
    .filter((r) => r.valid_to === null && r.archived_by === null)
    .slice(0, MAX_CANDIDATES)
    .map((r) => ({
      id: r.id,
      key: r.key,
      content: r.content,
      metadata: JSON.parse(r.metadata) as Record<string, unknown>,
      validFrom: r.valid_from,
      held: r,
    }));
  return { current, keyHolder: holder ? { id: holder.id, current: holder.valid_to === null } : null };
}

/** The memory that holds a key, and whether it still holds (is not superseded). */
export interface KeyHolder {
  id: string;
  current: boolean;
}

/**
 * Whether a key is free for a new fact: no memory holds it, or the one that does is current and not about to be
 * superseded (the write then upserts it, as every write of a key does).
 */
export function keyFree(holder: KeyHolder | null, superseding: ReadonlySet<string>): boolean {
  return holder === null || (holder.current && !superseding.has(holder.id));
}

/** The next version of a key whose memory no longer holds (or is about to stop): one past the highest in use. */
export async function nextVersion(db: Db, apiKeyId: string, key: string): Promise<string> {
  const rows = await db
    .selectFrom('memories')
    .select('key')
    .where('api_key_id', '=', apiKeyId)
    .where(storeDialect(db).startsWith('key', `${key}${VERSION}`))
    .execute();
  const highest = rows.reduce((max, r) => Math.max(max, Number(/~v(\d+)$/u.exec(r.key)?.[1] ?? 1)), 1);
  return `${key}${VERSION}${highest + 1}`;
}
