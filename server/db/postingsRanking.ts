import type { RawBuilder } from 'kysely';
import type { KeyPostings } from './keyPostings.ts';
import type { Db } from './open.ts';
import { firstInScope } from './rankedHead.ts';
import { inScope, type RetrievalScope } from './scope.ts';
import type { KeywordHits } from './storeDialect.ts';

/** A key's postings as a search ranks from them: kept in step with the store, and the whole index's average length. */
export interface HeldPostings {
  postings: KeyPostings;
  average: number;
}

/**
 * The keyword tier's answer from a key's postings in this process's memory, on either store: the best-ranked
 * memories (keyPostings.ts) read a head at a time and checked against the scope, in the ranking's order. `terms` are
 * the words as the index holds them (null: a word it drops); `pkIn` is the store's condition that a memory's pk is
 * one of a list.
 */
export async function rankFromPostings(
  db: Db,
  scope: RetrievalScope,
  terms: readonly (string | null)[],
  held: HeldPostings,
  limit: number,
  pkIn: (pks: readonly number[]) => RawBuilder<boolean>,
): Promise<KeywordHits> {
  const { postings, average } = held;
  const rows = await firstInScope(limit, async (head) => {
    const top = postings.top(terms, average, head);
    return { rows: await inScopeInOrder(db, scope, top.rows, pkIn), exhausted: top.complete };
  });
  return { memories: postings.memories, holding: terms.map((t) => (t === null ? 0 : postings.holding(t))), rows };
}

/** The ranked memories that are in scope, in their ranking's order. */
async function inScopeInOrder(
  db: Db,
  scope: RetrievalScope,
  ranked: readonly { pk: number; score: number; matched: number[] }[],
  pkIn: (pks: readonly number[]) => RawBuilder<boolean>,
) {
  if (ranked.length === 0) return [];
  const rows = await db
    .selectFrom('memories')
    .selectAll()
    .where(pkIn(ranked.map((r) => r.pk)))
    .where((eb) => inScope(eb, scope, { byPk: true }))
    .execute();
  const byPk = new Map(rows.map((row) => [row.pk, row]));
  return ranked.flatMap(({ pk, score, matched }) => {
    const row = byPk.get(pk);
    return row ? [Object.assign(row, { score, matched })] : [];
  });
}
