import type { Db } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';
import type { CandidateKeys, StoredFact } from './supersessionRules.ts';

/** The most current memories read for one fact: the newest of its keys, when a key holds more. */
const MAX_CANDIDATES = 200;

/** A key's later versions (supersessionRules.versionOf): a fact that supersedes the memory holding its key is written as `key~v2`, then `~v3`. */
const VERSION = '~v';

const likeEscaped = (text: string) => text.replace(/[\\%_]/gu, '\\$&');

/**
 * The current memories of one API key that a new fact may supersede (supersessionRules.candidateKeys): those of its
 * keys or their later versions, and those whose key starts with one of its prefixes. Archived ones are left out: a
 * summary holds their text now.
 */
export async function currentFactsByKeys(
  db: Db,
  apiKeyId: string,
  { keys, prefixes }: CandidateKeys,
): Promise<(StoredFact & { validFrom: number })[]> {
  if (keys.length === 0 && prefixes.length === 0) return [];
  const { likeIgnoringAsciiCase } = storeDialect(db);
  const rows = await db
    .selectFrom('memories')
    .select(['id', 'key', 'content', 'metadata', 'valid_from'])
    .where('api_key_id', '=', apiKeyId)
    .where('valid_to', 'is', null)
    .where('archived_by', 'is', null)
    .where((eb) =>
      eb.or([
        ...keys.map((key) => eb('key', '=', key)),
        ...keys.map((key) => likeIgnoringAsciiCase('key', `${likeEscaped(key)}${VERSION}%`)),
        ...prefixes.map((prefix) => likeIgnoringAsciiCase('key', `${likeEscaped(prefix)}%`)),
      ]),
    )
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
  const { likeIgnoringAsciiCase } = storeDialect(db);
  const rows = await db
    .selectFrom('memories')
    .select('key')
    .where('api_key_id', '=', apiKeyId)
    .where(likeIgnoringAsciiCase('key', `${likeEscaped(key)}${VERSION}%`))
    .execute();
  const highest = rows.reduce((max, r) => Math.max(max, Number(/~v(\d+)$/u.exec(r.key)?.[1] ?? 1)), 1);
  return `${key}${VERSION}${highest + 1}`;
}
