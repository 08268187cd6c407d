import { hash } from 'node:crypto';
import type { MemoryRow } from '../db/schema.ts';
import { CAPTURE_SOURCE } from './memory.ts';
import { factSignatures } from './paraphrase.ts';

/**
 * The fact index: what a memory's fact signatures (paraphrase.ts) are stored as, so that the memories a new text may
 * restate are found by one probe of an index instead of the keyword index's postings of common words.
 *
 * A signature is stored as a hash of it with its API key, type and kind (whole, or with a word left out): the index then
 * holds no word of a memory (an erase leaves nothing readable behind), a probe reads only its own key's rows however
 * common the fact is across keys, and a probe of a whole signature never meets another text's left-out one. 48 bits
 * fit a JavaScript number, a SQLite integer and a PostgreSQL bigint alike; a collision only adds a candidate, and every
 * candidate is checked on its stored content (merge.ts).
 */

type Kind = 'whole' | 'left-out';

/** What a memory's signatures depend on. */
export type Indexed = Pick<MemoryRow, 'api_key_id' | 'type' | 'content' | 'metadata'>;

/** A new text of up to this many content words is looked up with each word left out (it may be the more specific). */
const MAX_WORDS_LEFT_OUT_LOOKED_UP = 16;

function hashOf(m: Pick<Indexed, 'api_key_id' | 'type'>, kind: Kind, signature: string): number {
  return hash('sha1', `${m.api_key_id}\u0000${m.type}\u0000${kind}\u0000${signature}`, 'buffer').readUIntBE(0, 6);
}

/**
 * The memories.fact_signatures of a memory: its whole signature's hash and those of its signatures with a word left
 * out, as a JSON array; null when it has none. A captured chat turn has none: it is kept as it was said, never merged
 * into or with a fact.
 */
export function storedFactSignatures(m: Indexed): string | null {
  if ((JSON.parse(m.metadata) as { source?: unknown }).source === CAPTURE_SOURCE) return null;
  const s = factSignatures(m.content);
  if (s === null) return null;
  return JSON.stringify([hashOf(m, 'whole', s.whole), ...s.leftOut.map((l) => hashOf(m, 'left-out', l))]);
}

/**
 * The hashes whose memories may state `m`'s fact: the same signature, a stored wording with one word more (its
 * signature with that word left out is this one), and, the new text being the more specific, one with a word less (its
 * whole signature is one of this text's with a word left out). `sameWordsOnly`: the first kind alone. Null for a text
 * with no signature.
 */
export function factProbe(m: Pick<Indexed, 'api_key_id' | 'type' | 'content'>, o: { sameWordsOnly: boolean }): number[] | null {
  const s = factSignatures(m.content, o.sameWordsOnly ? 0 : MAX_WORDS_LEFT_OUT_LOOKED_UP);
  if (s === null) return null;
  if (o.sameWordsOnly) return [hashOf(m, 'whole', s.whole)];
  return [hashOf(m, 'whole', s.whole), hashOf(m, 'left-out', s.whole), ...s.leftOut.map((l) => hashOf(m, 'whole', l))];
}
