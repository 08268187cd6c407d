import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
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
  // Each key and prefix its own range of the (api key, key) index, then the rows ordered: asked as one condition with
  // the order, SQLite walks the whole key by its updated_at index, and PostgreSQL reads all the key's rows.
  const ofKeys = db.selectFrom('memories').select('pk').where('api_key_id', '=', apiKeyId);
  const ranges = [
    ...[...new Set([key, ...keys])].map((k) => ofKeys.where(keyEquals('key', k))),
    ...keys.map((k) => ofKeys.where(startsWith('key', `${k}${VERSION}`))),
    ...prefixes.map((prefix) => ofKeys.where(startsWith('key', prefix))),
  ];
  const candidates = ranges.slice(1).reduce((all, range) => all.unionAll(range), ranges[0]!);
  const rows = await db
    .selectFrom('memories')
    .select(['pk', 'id', 'key', 'content', 'metadata', 'valid_from', 'valid_to', 'superseded_by', 'archived_by'])
    .where('pk', 'in', candidates)
    .where((eb) => eb.or([eb.and([eb('valid_to', 'is', null), eb('archived_by', 'is', null)]), eb('key', '=', key)]))
    // The key's holder first, so that the limit never leaves it out.
    .orderBy(sql`key = ${key}`, 'desc')
    .orderBy('updated_at', 'desc')
    .limit(MAX_CANDIDATES + 1)
    .execute();
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
