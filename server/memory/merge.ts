import { sql } from 'kysely';
import type { Db } from '../db/open.ts';
import type { MemoryRow, NewMemoryRow } from '../db/schema.ts';
import { retentionCutoff, type Settings } from '../settings/settings.service.ts';
import { countTokens } from '../tokenCount.ts';
import { changing } from './change.ts';
import { addVersion, hasVersionWithContent } from './history.repository.ts';
import * as repo from './memory.repository.ts';
import type { MemoryDeps } from './memory.service.ts';
import { type Memory, rowToMemory } from './memory.ts';
import { lookupWords, paraphrase } from './paraphrase.ts';

/**
 * One memory per fact: before a memory is stored, the memory of the same API key, session and type that says the same
 * thing in other words (paraphrase.ts) takes it in instead. Its mention count and last-seen time go up, the more
 * specific wording stays, and the other goes to its history as a version (why "merged paraphrase").
 */

/** Memories of the same scope holding the new text's words that are compared with it, at most, per lookup. */
const CANDIDATES = 5;
/** Texts of up to this many words are also looked up with each word left out (short facts: "Lives in Berlin"). */
const MAX_WORDS_LEFT_OUT = 4;
/** Words a lookup asks for at most. */
const MAX_WORDS_LOOKED_UP = 4;

export const MERGED_PARAPHRASE = 'merged paraphrase';

/** A stored memory that a new row restates, and whether the new wording is the one to keep. */
export interface ParaphraseMatch {
  target: Pick<MemoryRow, 'pk'>;
  keepIncoming: boolean;
}

/**
 * The memory `row` restates, if any, among a few of its key, session and type that hold its words, as the keyword
 * index finds them (never a scan of the key). The settings are the caller's, read before its transaction (a read of them inside one
 * would wait for it on SQLite's one connection). A row whose key is already stored is an upsert of that memory, not a paraphrase; a key
 * the caller chose (`keyGiven`) is only merged into another key's memory when the content words are the same.
 */
export async function findParaphrase(
  deps: Pick<MemoryDeps, 'db' | 'now'>,
  row: NewMemoryRow,
  o: { keyGiven: boolean; settings: Settings },
): Promise<(ParaphraseMatch & { target: MemoryRow }) | null> {
  const { settings } = o;
  if (!settings.mergeParaphrases) return null;
  const words = lookupWords(row.content);
  if (words.length < 2 || (await repo.memoryKeyExists(deps.db, row.api_key_id, row.key))) return null;
  const now = deps.now();
  const scope = {
    apiKeyId: row.api_key_id,
    sessionId: row.session_id ?? null,
    type: row.type,
    now,
    retentionCutoff: retentionCutoff(now, settings),
  };
  // For a short text, the memories holding all its words but one (the new text being the more specific), which take in
  // those holding all of them (the same fact, or a more specific wording); for a longer one, those holding its longest
  // words (the rarest, as a rule: each word more is a posting list more to read). The longest word of each goes last:
  // the keyword index reads the postings of the last word (a prefix) first and checks the others on those.
  const longestLast = (group: string[]) => [...group].sort((x, y) => x.length - y.length);
  const leftOut = !o.keyGiven && words.length >= 3 && words.length <= MAX_WORDS_LEFT_OUT;
  const groups = leftOut
    ? words.map((_, i) => longestLast(words.filter((_, j) => j !== i)))
    : [longestLast([...words].sort((x, y) => y.length - x.length).slice(0, MAX_WORDS_LOOKED_UP))];
  // As many candidates as when the whole text was a lookup of its own.
  const limit = CANDIDATES * (groups.length + (leftOut ? 1 : 0));
  const candidates = await repo.memoriesHoldingWords(
    deps.db,
    scope,
    groups.map((g) => g.join(' ')),
    limit,
  );
  for (const target of candidates) {
    const found = paraphrase(target.content, row.content);
    if (found === null || (o.keyGiven && found !== 'same')) continue;
    return { target, keepIncoming: found === 'second-more-specific' };
  }
  return null;
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
  return atomically((db) =>
    changing(db, change, async (trx: Db) => {
      const { target } = match;
      if (match.keepIncoming) {
        // The trigger keeps the wording this replaces.
        const set = { ...seen, content: incoming.content, tokens: countTokens(incoming.content), needs_reindex: 1 };
        return rowToMemory(await repo.updateMemoryRow(trx, target.pk, set));
      }
      // The stored wording stays: the new one was never the memory's text, so it is written to the history here.
      const row = await repo.updateMemoryRow(trx, target.pk, seen);
      await addVersion(trx, target.pk, { ...row, content: incoming.content }, change, o.historyVersionsKept);
      return rowToMemory(row);
    }),
  );
}
