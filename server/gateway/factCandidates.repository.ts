import type { Db } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';
import type { CandidateKeys, StoredFact } from './supersessionRules.ts';

/** The most current memories read for one fact: the newest of its keys, when a key holds more. */
const MAX_CANDIDATES = 200;

/** A key's later versions (supersessionRules.versionOf): a fact that supersedes the memory holding its key is written as `key~v2`, then `~v3`. */
const VERSION = '~v';

/**
 * The current memories of one API key that a new fact may supersede (supersessionRules.candidateKeys): those of its
 * keys or their later versions, and those whose key starts with one of its prefixes (as written: the rules read only
 * keys in their own spelling). Archived ones are left out: a
 * summary holds their text now.
 */
export async function currentFactsByKeys(
  db: Db,
  apiKeyId: string,
  { keys, prefixes }: CandidateKeys,
): Promise<(StoredFact & { validFrom: number })[]> {
  if (keys.length === 0 && prefixes.length === 0) return [];
  const { startsWith, keyEquals } = storeDialect(db);
  // Each key and prefix its own range of the (api key, key) index, then the rows ordered: asked as one condition with
  // the order, SQLite walks the whole key by its updated_at index, and PostgreSQL reads all the key's rows.
  const ofKeys = db.selectFrom('memories').select('pk').where('api_key_id', '=', apiKeyId);
  const ranges = [
    ...keys.map((key) => ofKeys.where(keyEquals('key', key))),
    ...keys.map((key) => ofKeys.where(startsWith('key', `${key}${VERSION}`))),
    ...prefixes.map((prefix) => ofKeys.where(startsWith('key', prefix))),
  ];
  const candidates = ranges.slice(1).reduce((all, range) => all.unionAll(range), ranges[0]!);
  const rows = await db
    .selectFrom('memories')
    .select(['id', 'key', 'content', 'metadata', 'valid_from'])
    .where('pk', 'in', candidates)
    .where('valid_to', 'is', null)
    .where('archived_by', 'is', null)
    .orderBy('updated_at', 'desc')
    .limit(MAX_CANDIDATES)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    key: r.key,
    content: r.content,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    validFrom: r.valid_from,
  }));
}

/**
 * Whether `key` is free for a new fact: no memory holds it, or the one that does is current and not about to be
 * superseded (the write then upserts it, as every write of a key does).
 */
export async function keyFree(db: Db, apiKeyId: string, key: string, superseding: ReadonlySet<string>): Promise<boolean> {
  const holder = await db
    .selectFrom('memories')
    .select(['id', 'valid_to'])
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .executeTakeFirst();
  return holder === undefined || (holder.valid_to === null && !superseding.has(holder.id));
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
