import { createHash } from 'node:crypto';
import type { MemoryType } from '../memory/memory.ts';
import { CHANGE_PATTERNS, splitReplaced } from './changeRules.ts';
import {
  ADVERB,
  capitalise,
  type Description,
  type Groups,
  HABITUALLY,
  I,
  I_AM,
  I_OR_WE,
  NOT,
  type Pattern,
  pattern,
  ROLE_NOUN,
  WORD_END,
  WORD_START,
  word,
} from './phrases.ts';
import { containsSecret } from './secretFilter.ts';
import { keepTail, splitClauses, splitSentences, straightenApostrophes } from './sentences.ts';
import { isQuestionOrCondition, isReported } from './statements.ts';

/**
 * Rule-based extraction of durable facts about the user ("I prefer tabs", "I work at Acme") from chat text.
 * Pure and deterministic; never throws; every regex is run on whitespace-collapsed text and has no nested
 * unbounded quantifiers, so the work stays linear in the input.
 */

export type FactCategory = 'preference' | 'decision' | 'habit' | 'identity' | 'goal';
export type FactPolarity = 'positive' | 'negative';

export interface ExtractedFact {
  /** Upsert key. Both polarities of a statement share it, so "I don't like X" replaces "I like X". */
  key: string;
  content: string;
  type: MemoryType;
  category: FactCategory;
  polarity: FactPolarity;
  /** The sentence the fact came from, whitespace-collapsed; long sentences are cut to a window starting at the fact. */
  source: string;
  /** Said as a change ("switched from Vim", "instead of PostgreSQL", "no longer"): what the user said before. */
  replaces?: Replaced;
}

/**
 * The earlier statement a change replaces, as far as the sentence says: the object it named ("Vim"), or only the choice
 * it was ("switched to Helix": the editor), and for a negative of identity the slot it stood in ("identity:employer").
 * Always the user's own, and said positively: rules read only first-person statements.
 */
export interface Replaced {
  object?: string;
  choice?: string;
  slot?: string;
}

export interface ExtractOptions {
  role: 'user' | 'assistant';
  /** Strings a sentence must not hold to be mined, besides what the secret filter finds: tokens mnemo issued. */
  knownSecrets?: readonly string[];
  /** Mine assistant text too. Off by default: the assistant's "I'll use fetch" is not the user's decision. */
  includeAssistant?: boolean;
}

/** Longest input mined, in UTF-16 code units (String#length, the unit LIMITS.contentChars uses). Longer input keeps its tail. */
export const MAX_EXTRACTION_INPUT = 65_536;

const MIN_CONTENT_CHARS = 3;
const MAX_CONTENT_CHARS = 500;
const MAX_SOURCE_CHARS = 500;
const MAX_KEY_CHARS = 120;

/**
 * Preferences, identity and goals describe who the user is; habits and patterns describe how they work; a decision
 * is an event, made at one time in one conversation (the seed's categories).
 */
const CATEGORY_TYPE: Record<FactCategory, MemoryType> = {
  preference: 'factual',
  identity: 'factual',
  goal: 'factual',
  habit: 'procedural',
  decision: 'episodic',
};

export function extractFacts(text: string, options: ExtractOptions): ExtractedFact[] {
  if (typeof text !== 'string') return [];
  if (options.role === 'assistant' && options.includeAssistant !== true) return [];
  const byKey = new Map<string, ExtractedFact>();
  for (const sentence of splitSentences(keepTail(text, MAX_EXTRACTION_INPUT))) {
    for (const fact of factsInSentence(sentence, options.knownSecrets ?? [])) {
      // Re-inserting moves the key to the end, so the batch is ordered by each fact's latest statement.
      byKey.delete(fact.key);
      byKey.set(fact.key, fact);
    }
  }
  return [...byKey.values()];
}

function factsInSentence(rawSentence: string, knownSecrets: readonly string[]): ExtractedFact[] {
  const sentence = rawSentence.replace(/\s+/gu, ' ').trim();
  if (sentence === '' || containsSecret(sentence) || knownSecrets.some((secret) => sentence.includes(secret))) return [];
  const facts: ExtractedFact[] = [];
  for (const clause of splitClauses(straightenApostrophes(sentence))) {
    const found = firstMatch(clause.text);
    if (found === undefined || isReported(sentence, clause.start + found.match.index)) continue;
    const fact = buildFact(found.pattern, found.match, clause.text);
    if (fact === undefined) continue;
    facts.push({ ...fact, source: sourceWindow(sentence, clause.start + found.match.index) });
  }
  return facts;
}

const DECISION_VERB = String.raw`(?<verb>use|switch\s+to|go\s+with|stick\s+with|stick\s+to|move\s+to|migrate\s+to|adopt)`;
const WILL = String.raw`(?:'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to|'re\s+going\s+to|\s+are\s+going\s+to|'m\s+gonna|\s+am\s+gonna)`;
const WILL_NOT = String.raw`(?:'ll\s+not|'ll\s+never|\s+will\s+not|\s+will\s+never|\s+won't|\s+wont|\s+shall\s+not|'m\s+not\s+going\s+to|\s+am\s+not\s+going\s+to|'re\s+not\s+going\s+to|\s+are\s+not\s+going\s+to)`;
const PERIOD = `(?<when>morning|day|evening|night|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)`;
/** Said of a favourite and carrying nothing: "my favourite editor is definitely Helix". */
const FAVOURITE_HEDGE = String.raw`(?:(?:definitely|probably|still|currently|easily|absolutely|clearly)\s+)?`;

const LIKE_VERBS: Partial<Record<string, string>> = { like: 'Likes', love: 'Loves', adore: 'Loves', enjoy: 'Enjoys', prefer: 'Prefers' };
const DISLIKE_VERBS: Partial<Record<string, string>> = { dislike: 'Dislikes', hate: 'Hates', detest: 'Hates', loathe: 'Hates' };
const NEGATIVE_FREQUENCIES = new Set(['never', 'rarely', 'seldom']);

/**
 * "Favourite editor is Helix", in the user's spelling; keyed by the topic so a new favourite replaces the old one.
 * The verb follows the topic: the one said after it ("my favourite editors are"), else its number ("… are my
 * favourite snacks").
 */
function favourite(g: Groups, topic: string, object: string): Description {
  const label = word(g, 'fav') === 'favourite' ? 'Favourite' : 'Favorite';
  const said = word(g, 'verb');
  const verb = said === 'is' || said === 'are' ? said : said === '' && g.verb2 === undefined && /s$/iu.test(topic) ? 'are' : 'is';
  return { polarity: 'positive', content: `${label} ${topic} ${verb} ${object}`, key: ['favorite', topic] };
}

/** Earlier entries win when two patterns match at the same position, so more specific ones come first. */
const PATTERNS: readonly Pattern[] = [
  ...CHANGE_PATTERNS,
  {
    category: 'preference',
    regex: pattern(String.raw`${I}\s+${ADVERB}${HABITUALLY}(?<verb>like|love|adore|enjoy|prefer)\s+`),
    describe: (object, g) => ({
      polarity: 'positive',
      content: `${LIKE_VERBS[word(g, 'verb')] ?? 'Likes'} ${object}`,
      key: ['pref', object],
    }),
  },
  {
    category: 'preference',
    regex: pattern(String.raw`${I}\s+${ADVERB}${NOT}\s+${ADVERB}(?:like|love|enjoy)\s+`),
    describe: (object) => ({ polarity: 'negative', content: `Dislikes ${object}`, key: ['pref', object] }),
  },
  {
    category: 'preference',
    regex: pattern(String.raw`${I}\s+${ADVERB}${HABITUALLY}(?<verb>dislike|hate|detest|loathe)\s+`),
    describe: (object, g) => ({
      polarity: 'negative',
      content: `${DISLIKE_VERBS[word(g, 'verb')] ?? 'Dislikes'} ${object}`,
      key: ['pref', object],
    }),
  },
  {
    category: 'preference',
    regex: pattern(String.raw`${I}\s+${ADVERB}${HABITUALLY}(?:avoid|steer\s+clear\s+of|stay\s+away\s+from)\s+`),
    describe: (object) => ({ polarity: 'negative', content: `Avoids ${object}`, key: ['pref', object] }),
  },
  {
    category: 'preference',
    regex: pattern(String.raw`${I}\s+${ADVERB}(?:can't|cannot|can\s+not|cant)\s+stand\s+`),
    describe: (object) => ({ polarity: 'negative', content: `Can't stand ${object}`, key: ['pref', object] }),
  },
  {
    category: 'preference',
    // The topic is bounded so a sentence of repeated "my favourite" cannot make the lazy search quadratic.
    regex: pattern(
      String.raw`${WORD_START}my\s+(?:all[-\s]time\s+|absolute\s+)?(?<fav>favou?rite|fave?)\s+(?<topic>.{1,80}?)(?:\s+(?<verb>is|are|has\s+always\s+been|have\s+always\s+been)|(?<verb2>'s))\s+${FAVOURITE_HEDGE}`,
    ),
    describe: (object, g) => favourite(g, g.topic ?? '', object),
  },
  {
    category: 'preference',
    // "Helix is my favourite editor": the object comes first and opens the clause (after an "I think"), so no
    // earlier words of the clause are taken for it; at most four words, and the topic at most four.
    regex: pattern(
      String.raw`^(?:(?:i\s+think|i\s+guess|i'd\s+say|honestly|well|so|oh)[,\s]+)?(?<object>[^\s,]+(?:\s+[^\s,]+){0,3}?)\s+(?:is|are)\s+${FAVOURITE_HEDGE}my\s+(?:all[-\s]time\s+|absolute\s+)?(?<fav>favou?rite|fave?)\s+(?<topic>[^\s,.;!?]+(?:\s+[^\s,.;!?]+){0,3})${WORD_END}`,
    ),
    describe: (object, g) => favourite(g, g.topic ?? '', object),
  },
  {
    category: 'identity',
    regex: pattern(String.raw`${WORD_START}my\s+name(?:'s|\s+is)\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Name is ${object}`, key: ['identity', 'name'] }),
  },
  {
    category: 'identity',
    regex: pattern(String.raw`${I}\s+${ADVERB}work\s+(?<prep>at|for)\s+`),
    describe: (object, g) => ({ polarity: 'positive', content: `Works ${word(g, 'prep')} ${object}`, key: ['identity', 'employer'] }),
  },
  {
    category: 'identity',
    regex: pattern(String.raw`${I}\s+${ADVERB}live\s+in\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Lives in ${object}`, key: ['identity', 'location'] }),
  },
  {
    category: 'identity',
    regex: pattern(String.raw`${I_AM}\s+${ADVERB}based\s+in\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Based in ${object}`, key: ['identity', 'location'] }),
  },
  {
    category: 'identity',
    regex: pattern(String.raw`${I_AM}\s+${ADVERB}(?<article>an?)\s+(?<object>(?:\S+\s+){0,4}?${ROLE_NOUN})${WORD_END}`),
    describe: (object, g) => ({ polarity: 'positive', content: `Is ${word(g, 'article')} ${object}`, key: ['identity', 'role'] }),
  },
  {
    category: 'goal',
    regex: pattern(
      String.raw`${I}(?:\s+${ADVERB}(?:want|hope|plan|intend)|\s+would\s+(?:really\s+)?like|'d\s+(?:really\s+)?like)\s+to\s+learn\s+`,
    ),
    describe: (object) => ({ polarity: 'positive', content: `Wants to learn ${object}`, key: ['goal', `learn ${object}`] }),
  },
  {
    category: 'goal',
    regex: pattern(String.raw`${I}\s+${NOT}\s+${ADVERB}want\s+to\s+learn\s+`),
    describe: (object) => ({ polarity: 'negative', content: `Does not want to learn ${object}`, key: ['goal', `learn ${object}`] }),
  },
  {
    category: 'goal',
    regex: pattern(String.raw`${I_AM}\s+${ADVERB}trying\s+to\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Trying to ${object}`, key: ['goal', object] }),
  },
  {
    category: 'goal',
    regex: pattern(String.raw`${WORD_START}my\s+(?:main\s+|current\s+)?goal\s+is\s+to\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Goal is to ${object}`, key: ['goal', object] }),
  },
  {
    category: 'decision',
    regex: pattern(String.raw`${I_OR_WE}${WILL}\s+${ADVERB}${DECISION_VERB}\s+`),
    describe: (object, g) => ({ polarity: 'positive', content: `Decided to ${word(g, 'verb')} ${object}`, key: ['decision', object] }),
  },
  {
    category: 'decision',
    regex: pattern(String.raw`${I_OR_WE}${WILL_NOT}\s+${ADVERB}${DECISION_VERB}\s+`),
    describe: (object, g) => ({ polarity: 'negative', content: `Decided not to ${word(g, 'verb')} ${object}`, key: ['decision', object] }),
  },
  {
    category: 'decision',
    regex: pattern(String.raw`${I_OR_WE}(?:'ve|\s+have)?\s+${ADVERB}decided\s+(?:(?<not>not\s+)?to\s+${DECISION_VERB}|on)\s+`),
    describe: (object, g) => {
      const verb = word(g, 'verb');
      if (g.not !== undefined) return { polarity: 'negative', content: `Decided not to ${verb} ${object}`, key: ['decision', object] };
      return { polarity: 'positive', content: verb ? `Decided to ${verb} ${object}` : `Decided on ${object}`, key: ['decision', object] };
    },
  },
  {
    category: 'decision',
    regex: pattern(String.raw`${WORD_START}let(?:'s|\s+us)\s+${DECISION_VERB}\s+`),
    describe: (object, g) => ({ polarity: 'positive', content: `Decided to ${word(g, 'verb')} ${object}`, key: ['decision', object] }),
  },
  {
    category: 'decision',
    regex: pattern(String.raw`${I_OR_WE}\s+${ADVERB}(?:chose|picked|opted\s+for|went\s+with|settled\s+on)\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Chose ${object}`, key: ['decision', object] }),
  },
  {
    category: 'habit',
    regex: pattern(String.raw`${I}\s+${ADVERB}tend\s+to\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Tends to ${object}`, key: ['habit', object] }),
  },
  {
    category: 'habit',
    regex: pattern(String.raw`${I}\s+(?:${ADVERB}tend\s+not\s+to|${NOT}\s+${ADVERB}tend\s+to)\s+`),
    describe: (object) => ({ polarity: 'negative', content: `Tends not to ${object}`, key: ['habit', object] }),
  },
  {
    category: 'habit',
    regex: pattern(String.raw`${I}\s+(?<freq>always|usually|normally|typically|generally|often|mostly|never|rarely|seldom)(?:\s+ever)?\s+`),
    describe: (object, g) => {
      const freq = word(g, 'freq');
      return {
        polarity: NEGATIVE_FREQUENCIES.has(freq) ? 'negative' : 'positive',
        content: `${capitalise(freq)} ${object}`,
        key: ['habit', object],
      };
    },
  },
  {
    category: 'habit',
    regex: pattern(String.raw`${WORD_START}(?:every|each)\s+${PERIOD},?\s+i\s+`),
    describe: (object, g) => ({ polarity: 'positive', content: `Every ${word(g, 'when')}: ${object}`, key: ['habit', object] }),
  },
];

interface PatternMatch {
  pattern: Pattern;
  match: RegExpExecArray;
}

/** The leftmost pattern match in the clause that is a statement rather than a question or a condition. */
function firstMatch(clause: string): PatternMatch | undefined {
  let best: PatternMatch | undefined;
  for (const pattern of PATTERNS) {
    const match = pattern.regex.exec(clause);
    if (match === null || isQuestionOrCondition(clause, match.index)) continue;
    if (best === undefined || match.index < best.match.index) best = { pattern, match };
  }
  return best;
}

function buildFact(pattern: Pattern, match: RegExpExecArray, clause: string): Omit<ExtractedFact, 'source'> | undefined {
  const groups: Groups = match.groups ?? {};
  const rest = clause.slice(match.index + match[0].length);
  const object = cleanObject(groups.object ?? rest);
  if (object === '' || EMPTY_OBJECTS.has(object.toLowerCase())) return undefined;
  const description = describe(pattern, object, groups, rest);
  const content = description?.content.trim() ?? '';
  if (description === undefined || content.length < MIN_CONTENT_CHARS || content.length > MAX_CONTENT_CHARS) return undefined;
  const fact = {
    key: factKey(...description.key),
    content,
    type: CATEGORY_TYPE[description.category ?? pattern.category],
    category: description.category ?? pattern.category,
    polarity: description.polarity,
  };
  return description.replaces === undefined ? fact : { ...fact, replaces: description.replaces };
}

/** "Instead of X" names what a choice replaces; a preference keeps it ("prefers tabs rather than spaces" is one preference). */
function describe(pattern: Pattern, object: string, groups: Groups, rest: string): Description | undefined {
  const split = splitReplaced(object);
  if (split.replaces === undefined) return pattern.describe(object, groups, rest);
  const chosen = pattern.describe(split.object, groups, rest);
  if (chosen === undefined || !['decision', 'uses'].includes(chosen.key[0])) return pattern.describe(object, groups, rest);
  return { ...chosen, replaces: chosen.replaces ?? split.replaces };
}

// ---------------------------------------------------------------------------------------------------------------
// Objects, keys and sources

/** Words that say nothing on their own: "I like it" is not worth remembering without its context. */
const EMPTY_OBJECTS = new Set([
  ...'it this that them these those one you him her us something anything everything nothing stuff things both either'.split(' '),
  'that one',
  'this one',
  'it all',
]);

/** Longest first, so "a lot more" is removed whole rather than leaving "a lot". */
const TRAILING_FILLERS = [
  'from now on',
  'going forward',
  'a lot more',
  'very much',
  'so much',
  'a lot',
  'as well',
  'a bit',
  'a little',
  'at all',
  'any more',
  'anymore',
  'these days',
  'again',
  'nowadays',
  'for now',
  'instead',
  'though',
  'anyway',
  'anyways',
  'honestly',
  'actually',
  'really',
  'please',
  'too',
  'tbh',
  'lol',
  'haha',
  'now',
];
const EDGE_QUOTES = `"'“”‘’«»`;
const TRAILING_JUNK = new Set([...` .,;:!?…~`, ...EDGE_QUOTES]);
const LEADING_JUNK = new Set([...` ,;:`, ...EDGE_QUOTES]);

/** The object without trailing punctuation or conversational filler ("Python a lot!" → "Python"). Index-based to stay linear. */
function cleanObject(raw: string): string {
  let start = 0;
  let end = raw.length;
  for (;;) {
    while (end > start && TRAILING_JUNK.has(raw.charAt(end - 1))) end--;
    const filler = TRAILING_FILLERS.find((f) => endsWithWord(raw, start, end, f));
    if (filler === undefined) break;
    end -= filler.length;
  }
  while (start < end && LEADING_JUNK.has(raw.charAt(start))) start++;
  return raw.slice(start, end);
}

function endsWithWord(text: string, start: number, end: number, word: string): boolean {
  const from = end - word.length;
  if (from < start || text.slice(from, end).toLowerCase() !== word) return false;
  return from === start || text.charAt(from - 1) === ' ';
}

/**
 * "prefix:words-of-the-text": NFKC and lowercase, letters, digits and combining marks of any script joined by "-".
 * Marks are kept because Indic and other scripts cannot spell words without them. Text with no such characters
 * ("🍣") is keyed by a hash of it; overlong keys are cut and suffixed with a hash so they stay distinct.
 */
export function factKey(prefix: string, text: string): string {
  const normalised = text.normalize('NFKC').toLowerCase();
  const slug = (normalised.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).join('-') || `#${digest(normalised)}`;
  const key = `${prefix}:${slug}`;
  if (key.length <= MAX_KEY_CHARS) return key;
  const suffix = `~${digest(key)}`;
  return `${cutAt(key, MAX_KEY_CHARS - suffix.length).replace(/-+$/u, '')}${suffix}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The sentence, or when it is too long, a window of it starting where the fact does. */
function sourceWindow(sentence: string, factStart: number): string {
  if (sentence.length <= MAX_SOURCE_CHARS) return sentence;
  const window = cutAt(sentence.slice(factStart), MAX_SOURCE_CHARS);
  const lastSpace = window.lastIndexOf(' ');
  return (lastSpace > MAX_SOURCE_CHARS / 2 ? window.slice(0, lastSpace) : window).trim();
}

/** The first `max` UTF-16 code units, without leaving half a surrogate pair at the end. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return isHighSurrogate(cut.charCodeAt(cut.length - 1)) ? cut.slice(0, -1) : cut;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
