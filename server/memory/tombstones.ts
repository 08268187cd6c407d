import { createHash } from 'node:crypto';
import type { Db } from '../db/open.ts';
import type { MemoryRow } from '../db/schema.ts';
import { insertTombstones } from './tombstone.repository.ts';

/** The authors of deletions that no caller asked for: the purge of what expired, and of what left the retention window. */
export const PURGE_AUTHORS = { expired: 'purge', retention: 'retention' } as const;

/** A memory's key as its tombstone keeps it: a key can be made of the user's words, its digest holds none of them. */
export const keyDigest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** Records, in the deleting transaction, that these memories were deleted at `at` by `by`. */
export function recordDeletions(
  db: Db,
  deleted: readonly Pick<MemoryRow, 'id' | 'api_key_id' | 'session_id' | 'key'>[],
  by: string,
  at: number,
) {
  return insertTombstones(
    db,
    deleted.map((m) => ({
      api_key_id: m.api_key_id,
      session_id: m.session_id,
      memory_id: m.id,
      key_digest: keyDigest(m.key),
      deleted_at: at,
      deleted_by: by,
    })),
  );
}
