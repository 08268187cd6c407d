import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { MemoryRow, NewMemoryRow } from '../db/schema.ts';
import { retentionCutoff, type Settings } from '../settings/settings.service.ts';
import { countTokens } from '../tokenCount.ts';
import { changing } from './change.ts';
import { memoriesWithFactSignatures } from './factIndex.repository.ts';
import { factProbe, storedFactSignatures } from './factIndex.ts';
import { addVersion, hasVersionWithContent } from './history.repository.ts';
import * as repo from './memory.repository.ts';
import type { MemoryDeps } from './memory.service.ts';
import { type Memory, rowToMemory } from './memory.ts';
import { paraphrase } from './paraphrase.ts';

/**
 * One memory per fact: before a memory is stored, the memory of the same API key, session and type that says the same
 * thing in other words (paraphrase.ts) takes it in instead. Its mention count and last-seen time go up, the more
 * specific wording stays, and the other goes to its history as a version (why "merged paraphrase").
 */

/** Candidates compared with a new text, at most: each holds one of its signatures, so more are rarely found. */
const CANDIDATES = 10;

export const MERGED_PARAPHRASE = 'merged paraphrase';

/** A stored memory that a new row restates, and whether the new wording is the one to keep. */
export interface ParaphraseMatch {
  target: Pick<MemoryRow, 'pk'>;
  keepIncoming: boolean;
}

/**
 * The memory `row` restates, if any, among a few of its key, session and type that the fact index finds for its
 * signatures (factIndex.ts: one probe, never a scan of the key): the same content words, a stored wording
 * with one word more, or, the new text being the more specific, one with a word less. Every candidate is checked on
 * its stored content with paraphrase(). The settings are the caller's, read before its transaction (a read of them
 * inside one would wait for it on SQLite's one connection). A row whose key is already stored is an upsert of that
 * memory, not a paraphrase; a key the caller chose (`keyGiven`) is only merged into another key's memory when the
 * content words are the same. `keyFree` says what the lookup learnt of the row's own key on the way: free when the
 * candidates' read says no memory holds it, or when nothing shares the text's signatures and the key was derived from
 * the text (a memory holding it would say the same words); false when it does not know.
 */
export async function findParaphrase(
  deps: Pick<MemoryDeps, 'db' | 'now'>,
  row: NewMemoryRow,
  o: { keyGiven: boolean; settings: Settings },
): Promise<{ match: (ParaphraseMatch & { target: MemoryRow }) | null; keyFree: boolean }> {
  const { settings } = o;
  const unknown = { match: null, keyFree: false };
  if (!settings.mergeParaphrases) return unknown;
  const probe = factProbe(row, { sameWordsOnly: o.keyGiven });
  if (probe === null) return unknown;
  const now = deps.now();
  const scope = {
    apiKeyId: row.api_key_id,
    sessionId: row.session_id ?? null,
    type: row.type,
    now,
    retentionCutoff: retentionCutoff(now, settings),
    key: row.key,
  };
  const candidates = await memoriesWithFactSignatures(deps.db, scope, probe, CANDIDATES);
  const keyFree = candidates.length === 0 ? !o.keyGiven : !candidates[0]!.keyTaken;
  for (const target of candidates) {
    const found = paraphrase(target.content, row.content);
    if (found === null || (o.keyGiven && found !== 'same')) continue;
    if (target.keyTaken) return { match: null, keyFree };
    return { match: { target, keepIncoming: found === 'second-more-specific' }, keyFree };
  }
  return { match: null, keyFree };
}

/**
 * Whether a memory already holds this wording, as its text or as a version of it (a paraphrase it took in): the same
 * row imported again, which is no new mention. As far back as its history is kept (historyVersionsKept).
 */
export async function holdsWording(db: Db, memory: Pick<MemoryRow, 'pk' | 'content'>, content: string): Promise<boolean> {
  return memory.content === content || (await hasVersionWithContent(db, memory.pk, content));
}

/**
 * Merges a restatement into the memory it restates, as `change` (why: "merged paraphrase"): one mention more, seen now
 * (and fresh again for retention, as a restatement under its key is), with the more specific wording current and the
 * other one kept as a version, `historyVersionsKept` at most.
 */
export async function mergeParaphrase(
  deps: Pick<MemoryDeps, 'db' | 'now'>,
  match: ParaphraseMatch,
  incoming: NewMemoryRow,
  o: { by: string; historyVersionsKept: number },
): Promise<Memory> {
  const at = deps.now();
  const change = { by: o.by, why: MERGED_PARAPHRASE, at };
  const seen = { mentions: sql<number>`mentions + 1`, last_seen_at: at, updated_at: at };
  // Both writes or neither: the memory's new count and the wording it took in.
  const atomically = <T>(run: (trx: Db) => Promise<T>) => (deps.db.isTransaction ? run(deps.db) : deps.db.transaction().execute(run));
  const { target } = match;
  return atomically(async (trx) => {
    if (match.keepIncoming) {
      // The trigger keeps the wording this replaces, with the change context as its author and reason.
      const set = {
        ...seen,
        content: incoming.content,
        tokens: countTokens(incoming.content),
        needs_reindex: 1,
        fact_signatures: storedFactSignatures(incoming),
      };
      return changing(trx, change, async (t) => rowToMemory(await repo.updateMemoryRow(t, target.pk, set)));
    }
    // The stored wording stays: the new one was never the memory's text, so it is written to the history here, and the
    // count and time the update changes make no version (so it needs no change context).
    const row = await repo.updateMemoryRow(trx, target.pk, seen);
    await addVersion(trx, target.pk, { ...row, content: incoming.content }, change, o.historyVersionsKept);
    return rowToMemory(row);
  });
}
