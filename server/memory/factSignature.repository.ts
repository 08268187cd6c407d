import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { MemoryRow, MemoryTypeValue } from '../db/schema.ts';
import { isActive } from '../db/scope.ts';
import { factSignatures } from './paraphrase.ts';

/**
 * The fact index: per memory, the signatures of its content (paraphrase.ts factSignatures), so that the memories a new
 * text may restate are found by one probe of an index instead of the keyword index's postings of common words. The
 * rows are written with the memory's content, after it in the same transaction when the caller has one; a lookup
 * always checks its candidates' stored content (merge.ts), so a row that is missing or stale can only miss a merge,
 * never cause a wrong one. They are deleted with their memory (on delete cascade).
 */

type Indexed = Pick<MemoryRow, 'pk' | 'api_key_id' | 'type' | 'content'>;

function signatureRows(m: Indexed) {
  const s = factSignatures(m.content);
  if (s === null) return [];
  const row = (signature: string, whole: number) => ({ memory_pk: m.pk, api_key_id: m.api_key_id, type: m.type, signature, whole });
  return [row(s.whole, 1), ...s.leftOut.map((l) => row(l, 0))];
}

/** Sets the memory's rows to those of its content; `fresh`: a memory just inserted, which has none yet. */
export async function writeFactSignatures(db: Db, m: Indexed, o: { fresh: boolean }) {
  if (!o.fresh) await db.deleteFrom('memory_fact_signatures').where('memory_pk', '=', m.pk).execute();
  const rows = signatureRows(m);
  if (rows.length > 0) await db.insertInto('memory_fact_signatures').values(rows).execute();
}

/** Memories per statement when the rows of stored memories are written (a migration's backfill). */
const BATCH = 200;

/**
 * Writes the rows of the stored memories after pk `after` (every one by default), in batches by pk: for a table just
 * created, or memories written around the server (a bench's seed).
 */
export async function backfillFactSignatures(db: Db, o: { after?: number } = {}) {
  for (let after = o.after ?? 0; ; ) {
    const memories = await db
      .selectFrom('memories')
      .select(['pk', 'api_key_id', 'type', 'content'])
      .where('pk', '>', after)
      .orderBy('pk')
      .limit(BATCH)
      .execute();
    const rows = memories.flatMap(signatureRows);
    if (rows.length > 0) await db.insertInto('memory_fact_signatures').values(rows).execute();
    if (memories.length < BATCH) return;
    after = memories[memories.length - 1]!.pk;
  }
}

/**
 * Up to `limit` active, current memories of exactly this key, session (null: key-wide ones only) and type with the
 * whole signature `whole`, or whose signature with a word left out is `whole` (a more specific wording), or whose whole
 * signature is one of `leftOut` (the new text being the more specific).
 */
export async function memoriesWithSignatures(
  db: Db,
  s: { apiKeyId: string; sessionId: string | null; type: MemoryTypeValue; now: number; retentionCutoff: number },
  signatures: { whole: string; leftOut: readonly string[]; wholeOnly: boolean },
  limit: number,
) {
  const pks = db
    .selectFrom('memory_fact_signatures')
    .select('memory_pk')
    .where('api_key_id', '=', s.apiKeyId)
    .where('type', '=', s.type)
    .where('signature', 'in', [signatures.whole, ...signatures.leftOut])
    .where((eb) =>
      signatures.wholeOnly
        ? eb('whole', '=', 1).and('signature', '=', signatures.whole)
        : eb.or([eb('signature', '=', signatures.whole), eb('whole', '=', 1)]),
    );
  // The rows are chosen by pk, from the index: expressions of the other columns keep SQLite from walking the key's
  // rows through its own indexes instead (as memory.repository's other pk lookups do).
  return db
    .selectFrom('memories')
    .selectAll()
    .where('pk', 'in', pks)
    .where(sql`coalesce(memories.session_id, '')`, '=', s.sessionId ?? '')
    .where('archived_by', 'is', null)
    .where('valid_to', 'is', null)
    .where((eb) => isActive(eb, s.now, s.retentionCutoff))
    .limit(limit)
    .execute();
}
