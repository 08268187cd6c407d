import type { Memory } from '../memory/memory.ts';
import { choiceAt, choiceNamed, findChoice, nameWords, termsOf } from './choices.ts';
import { type ExtractedFact, type FactPolarity, factKey, type Replaced } from './extraction.ts';

/**
 * Which of a key's current memories a new fact makes stale, and by which rule. Plain functions over what the caller
 * fetched (the memories whose keys `candidateKeys` names), no store: the write path asks, then marks.
 *
 * Precision comes first: a memory is superseded only when the rules read both it and the new fact as statements of
 * the same slot of the user's (keys the rules wrote, or a caller wrote in their spelling), and one of the rules below
 * says the new one takes its place. A memory the rules cannot read is never touched. Rules read first-person
 * statements only, so every fact they read is the user's own: a sentence about someone else ("my sister lives in
 * Lyon") yields no fact, and so supersedes nothing.
 */

export type SupersessionRule = 'single_value' | 'polarity' | 'explicit_change' | 'decision' | 'preference_reversal';

/** The new fact, as extraction (or a model's answer, shaped alike) gives it. */
export type NewFact = Pick<ExtractedFact, 'key' | 'content' | 'polarity' | 'replaces'>;

/** A current memory of the same API key. */
export type StoredFact = Pick<Memory, 'id' | 'key' | 'content' | 'metadata'>;

export interface Supersession {
  id: string;
  rule: SupersessionRule;
}

/** Slots that hold one value at a time: a new value replaces the old. */
const SINGLE_VALUED = new Set(['identity:name', 'identity:location', 'identity:employer', 'identity:role']);
const isSingleValued = (slot: string) => SINGLE_VALUED.has(slot) || slot.startsWith('favorite:');

/** Families whose facts a change of use or choice replaces ("switched from Vim" ends "Uses Vim" and "Decided to use Vim"). */
const CHOICE_FAMILIES = new Set(['uses', 'decision']);

interface Claim {
  /** The key's namespace: identity, favorite, pref, decision, uses, changed-mind, habit, goal. */
  family: string;
  /** What one value at a time is held for: a single-valued slot's key; else the family. */
  slot: string;
  /** The object as said ("tabs over spaces"), and its normalised words ("tab", "over", "space"). */
  object: string;
  words: string[];
  polarity: FactPolarity;
  /** How it was said, lower-case ("prefers", "likes"), when in extraction's words. */
  verb: string | undefined;
}

/**
 * Each family's ways of saying a fact, as extraction writes them; what follows is the object. A caller's own wording
 * of a known key falls back to the key's words.
 */
const LEADS: Record<string, RegExp> = {
  identity:
    /^(?:lives\s+in|based\s+in|works\s+(?:at|for)|name\s+is|is\s+an?|no\s+longer\s+(?:works\s+at|lives\s+in)|does\s+not\s+(?:work\s+at|live\s+in))\s+/iu,
  favorite: /^favou?rite\s+.+?\s+(?:is|are)\s+/iu,
  pref: /^(?:likes|loves|enjoys|prefers|dislikes|hates|avoids|can't\s+stand)\s+/iu,
  decision:
    /^(?:decided\s+(?:not\s+)?to\s+(?:use|switch\s+to|go\s+with|stick\s+with|stick\s+to|move\s+to|migrate\s+to|adopt)|decided\s+on|chose)\s+/iu,
  uses: /^(?:uses|switched\s+from\s+.+?\s+to|switched\s+to|no\s+longer\s+uses|does\s+not\s+use|stopped(?:\s+using)?|quit(?:\s+using)?|gave\s+up(?:\s+using)?)\s+/iu,
  'changed-mind': /^changed\s+their\s+mind\s+about\s+/iu,
};

const FORMER = /^identity:former-(employer|location)-/u;

/**
 * The key a version is of: "identity:location~v2" → "identity:location". A fact that supersedes the memory holding
 * its key is stored under the key's next version (gateway/storeFacts.ts), the memory it supersedes keeping its own.
 */
export const versionOf = (key: string) => key.replace(/~v\d+$/u, '');

/** What a memory (or the new fact) says, as far as the rules read it; undefined when they do not. */
function claimOf(fact: Pick<StoredFact, 'key' | 'content'> & { polarity: FactPolarity }): Claim | undefined {
  const key = versionOf(fact.key);
  const colon = key.indexOf(':');
  if (colon <= 0) return undefined;
  const family = key.slice(0, colon);
  const former = FORMER.exec(key);
  const slot = former ? `identity:${former[1]}` : family === 'identity' || family === 'favorite' ? key : family;
  if (family === 'identity' && !SINGLE_VALUED.has(slot)) return undefined;
  const lead = LEADS[family];
  const said = lead?.exec(fact.content);
  // A caller's own wording of a slot is its value ("Berlin"); of a family, the key names the object.
  const object = said
    ? fact.content.slice(said[0].length)
    : family === 'identity' || family === 'favorite'
      ? fact.content
      : fact.key.slice(colon + 1);
  const words = normalise(object);
  if (words.length === 0) return undefined;
  const verb = said?.[0].trim().split(/\s/u)[0]?.toLowerCase();
  return { family, slot, object, words, polarity: former ? 'negative' : fact.polarity, verb };
}

const polarityOf = (m: StoredFact): FactPolarity => (m.metadata.polarity === 'negative' ? 'negative' : 'positive');

// A message's facts read the same candidates (its pool, gateway/factPool.ts), and a candidate's claim depends only on
// the memory: each is read once. Memories are not changed in place (the pool replaces a row it changes).
const storedClaims = new WeakMap<StoredFact, Claim | null>();

/** What a stored memory says, as far as the rules read it. */
function storedClaim(memory: StoredFact): Claim | undefined {
  let claim = storedClaims.get(memory);
  if (claim === undefined) {
    claim = claimOf({ key: memory.key, content: memory.content, polarity: polarityOf(memory) }) ?? null;
    storedClaims.set(memory, claim);
  }
  return claim ?? undefined;
}

/**
 * The current memories the new fact supersedes, each with its rule; the fact's own memory (same id) is the caller's to
 * leave out. Restating a fact ("Lives in Berlin", then "Based in Berlin") supersedes nothing.
 */
export function supersededBy(fact: NewFact, candidates: readonly StoredFact[]): Supersession[] {
  const claim = claimOf(fact);
  if (claim === undefined) return [];
  const out: Supersession[] = [];
  for (const memory of candidates) {
    const old = storedClaim(memory);
    if (old === undefined) continue;
    const rule = ruleFor(claim, old, fact.replaces);
    if (rule !== undefined) out.push({ id: memory.id, rule });
  }
  return out;
}

function ruleFor(n: Claim, old: Claim, replaces: Replaced | undefined): SupersessionRule | undefined {
  const restated = n.slot === old.slot && equal(n.words, old.words);
  if (restated && n.polarity === old.polarity) return undefined;
  if (replaces !== undefined && replacedBy(n, old, replaces)) return 'explicit_change';
  if (restated) return 'polarity';
  if (n.polarity === 'negative' || old.polarity === 'negative') return undefined;
  if (n.slot === old.slot && isSingleValued(n.slot)) return 'single_value';
  if (n.family === 'decision' && old.family === 'decision' && sameDecision(n.words, old.words)) return 'decision';
  if (n.family === 'pref' && old.family === 'pref' && reverses(n.words, old)) return 'preference_reversal';
  return undefined;
}

/** Whether the old memory is what a change phrasing says it replaces. */
function replacedBy(n: Claim, old: Claim, replaces: Replaced): boolean {
  if (replaces.slot !== undefined)
    return old.slot === replaces.slot && old.polarity === 'positive' && covers(old.words, normalise(replaces.object ?? ''));
  // Changing one's mind about X retracts any stance on it; a switch or a stop ends only using or choosing it.
  const retracted = n.family === 'changed-mind';
  if (!(CHOICE_FAMILIES.has(old.family) || (retracted && old.family === 'pref'))) return false;
  if (!retracted && old.polarity === 'negative') return false;
  if (replaces.object !== undefined) return covers(old.words, normalise(replaces.object));
  const picked = choiceIn(old.words);
  return picked !== undefined && picked.category === replaces.choice && picked.term !== choiceIn(n.words)?.term;
}

/** A second decision of the same choice for the same purpose: "MySQL for this project" after "PostgreSQL for this project". */
function sameDecision(a: string[], b: string[]): boolean {
  const ca = choiceIn(a);
  const cb = choiceIn(b);
  if (ca === undefined || cb === undefined || ca.category !== cb.category || ca.term === cb.term) return false;
  const restA = a.filter((w) => w !== ca.term && choiceNamed(w) === undefined);
  const restB = b.filter((w) => w !== cb.term && choiceNamed(w) === undefined);
  return restA.length === 0 || restB.length === 0 || equal(restA, restB);
}

/** Normalised words of "tabs over spaces" ("instead of" has lost its "of"). */
const PAIR = /^(.+?) (?:over|rather than|instead|more than) (.+)$/u;

/** "spaces over tabs" after "tabs over spaces", or after "Prefers tabs". */
function reverses(n: string[], old: Claim): boolean {
  const pair = PAIR.exec(n.join(' '));
  if (pair === null) return false;
  const was = PAIR.exec(old.words.join(' '));
  if (was === null) return old.verb === 'prefers' && old.words.join(' ') === pair[2];
  return was[1] === pair[2] && was[2] === pair[1];
}

/** The chosen thing among an object's first words ("a PostgreSQL database for X": postgresql). */
const choiceIn = (words: readonly string[]) => findChoice(words.slice(0, 3));

/**
 * Where a fact that the extraction model says updates `memory` goes, read by these rules: in the memory's slot (its
 * key for a single-valued one, else the key of the fact's own object in the memory's family), replacing the
 * memory's object, so that `supersededBy` decides as for a change said in words. Undefined when the rules do not read
 * the fact as a statement of that slot ("Lives in Berlin" does not update "Likes Python"): the model's word alone
 * makes nothing stale.
 */
export function placeUpdate(memory: StoredFact, content: string): { key: string; replaces: Replaced } | undefined {
  const old = claimOf({ ...memory, polarity: polarityOf(memory) });
  const said = old === undefined ? null : (LEADS[old.family]?.exec(content) ?? null);
  if (old === undefined || said === null || /^(?:no\s+longer|does\s+not)\s/iu.test(said[0])) return undefined;
  if (isSingleValued(old.slot)) return { key: old.slot, replaces: { slot: old.slot, object: old.object } };
  return { key: factKey(old.family, content.slice(said[0].length)), replaces: { object: old.object } };
}

// ---------------------------------------------------------------------------------------------------------------
// Objects compared

/** Words that do not tell two objects apart. */
const FILLER = new Set('the a an my our your this that these those for of to in on at with and its their'.split(' '));

/**
 * Lower-case words without fillers, every spelling of a chosen thing as its one term ("VS Code" → vscode), and a
 * light stem (plural and -ing), so "using tabs" and "use tab" compare equal.
 */
export function normalise(text: string): string[] {
  const words = nameWords(text);
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    const choice = choiceAt(words, i);
    if (choice !== undefined) {
      out.push(choice.term);
      i += choice.length;
      continue;
    }
    const w = words[i++] ?? '';
    if (!FILLER.has(w)) out.push(stem(w));
  }
  return out;
}

function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3).replace(/(\p{L})\1$/u, '$1');
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

const equal = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w, i) => w === b[i]);

/** Whether the old object holds every word the change named ("Vim for everything" holds "Vim"). */
function covers(old: readonly string[], named: readonly string[]): boolean {
  if (named.length === 0) return false;
  const have = new Set(old);
  return named.every((w) => have.has(w));
}

// ---------------------------------------------------------------------------------------------------------------
// What to fetch

/** The current memories a caller fetches for `supersededBy`: those of these keys, and those whose key starts so. */
export interface CandidateKeys {
  keys: string[];
  prefixes: string[];
}

/** Bounded by the fact: its own key, its slot's, and the keys of the objects or choices it names. */
export function candidateKeys(fact: NewFact): CandidateKeys {
  const claim = claimOf(fact);
  if (claim === undefined) return { keys: [], prefixes: [] };
  const keys = new Set([fact.key]);
  const prefixes = new Set<string>();
  const slug = (family: string, text: string) => factKey(family, text);
  if (claim.slot.startsWith('identity:')) {
    keys.add(claim.slot);
    prefixes.add(`identity:former-${claim.slot.slice('identity:'.length)}-`);
  }
  const replaces = fact.replaces;
  const families = claim.family === 'changed-mind' ? ['pref', ...CHOICE_FAMILIES] : [...CHOICE_FAMILIES];
  if (replaces?.object !== undefined && replaces.slot === undefined) {
    for (const family of families) prefixes.add(slug(family, replaces.object));
  }
  const category = replaces?.choice ?? (claim.family === 'decision' ? choiceIn(claim.words)?.category : undefined);
  // A change of choice ends using or choosing any of its terms; a decision said plainly only another decision (ruleFor).
  const choosing = replaces === undefined ? ['decision'] : [...CHOICE_FAMILIES];
  if (category !== undefined) {
    for (const term of termsOf(category)) for (const family of choosing) prefixes.add(slug(family, term));
  }
  // Both "tabs over spaces" and "tabs" start with the pair's second object.
  const pair =
    claim.family === 'pref'
      ? /^.+? (?:over|rather than|instead of|more than) (.+)$/iu.exec(fact.key.slice('pref:'.length).replaceAll('-', ' '))
      : null;
  if (pair?.[1] !== undefined) prefixes.add(slug('pref', pair[1]));
  return { keys: [...keys], prefixes: [...prefixes] };
}
