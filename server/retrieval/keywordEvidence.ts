import type { KeywordHits } from '../db/storeDialect.ts';
import { ENGLISH_RANKS } from './englishRanks.data.ts';
import { askedSpeaker } from './speaker.ts';

/**
 * When a keyword match is no evidence that a memory is about the query: the keyword half of HYBRID's relevance floor
 * (relevanceFloor.ts). The rule reads only the query and the key's own statistics (how many of its memories hold each of
 * the query's words), so no other key's memories decide what this key's block holds; it reorders nothing it keeps.
 *
 * A single common word: a memory that shares one word with the query, and a word that tells the key's memories apart no
 * better than chance, is no evidence. Common is held by a fifth of the key's memories and by at least 50 of them ("2" in
 * a third of 5,000 abstracts against "what is 2+2?"): in a key of a few dozen memories a word most of them hold is the
 * key's topic ("trips" in 25 of 36 turns, asked "the order of the three trips I took"), and such counts are too small to
 * tell topic from filler. A number of one or two digits is common whatever the key's size: any text counts things, and a
 * memory that shares only "2" or "10" with a message ("what is 2+2?", "give me 5 ideas") is not about it, which a small
 * key cannot show by its counts ("2" in 7 of 14 turns). Two or more shared words are evidence however common each is: a
 * key whose every memory is about "project falcon" still answers "project falcon notes".
 *
 * A query that shares no telling word with any hit that is evidence gets nothing: every hit is then no evidence. A word
 * is telling when it is not an everyday word of English (its stem ranks 3,500th or later in a background model of
 * English word frequency, englishRanks.data.ts), or when a twentieth of the key's memories hold it. The key's own counts
 * cannot tell a chat line's word from a topic word: "thanks" in 3 of 5,183 abstracts, "briefly" in one turn of 24, look
 * to them like any real question's rare word. English can: those are everyday words. But an everyday word a key keeps
 * coming back to is its topic ("Japan" in 6 of 12 turns, asked "How long was I in Japan for?"), and a key of twenty
 * memories or fewer holds every word it holds at a twentieth, so the background never empties a small key's answers to
 * a question: a user who said "participated" once in 19 messages is answered when asked about the events they
 * participated in (at a tenth, the gateway replay lost such questions). The background judges the query as a whole, not
 * a hit alone: a real question's evidence often shares only an everyday word with it ("old", asked "How old was I when I
 * moved to the United States?") while another hit shares its topic word.
 *
 * A conversation repeats its commonest adjectives and verbs as much as its topic ("good" in 15 of 24 turns, "sounds" in
 * 10 of 44), so in a message that asks nothing ("ok, sounds good") a word among English's 2,000 commonest tells a topic
 * only when it names a thing: a noun, a name or a number ("Japan", "trips"); "deploy" (3,270th) still does. A question
 * ("when do deploys run?") or a message about what the user or the assistant said (speaker.ts) keeps every word the key
 * holds at a twentieth: "What was my previous occupation?" is answered by a turn that shares only "previous" with it.
 * Chat formulas ("thanks", "okay", "sorry") never tell anything, whatever their rank: newswire, the background's
 * source, rarely says them.
 *
 * A query that names three or more words past the everyday ones, none of which any of the key's memories holds, is
 * about something else, and its everyday words match the key by coincidence: another user's question about their own
 * things, against a key that talks about the same everyday topics. A real question names what it asks about, and the
 * key that answers it holds at least one of those words; with fewer than three, a question's rarer words are as often
 * phrasing the key never held (at two, LongMemEval lost R@5).
 *
 * A rule on how many of the query's words the key holds at all (nothing from a query the key holds under a fifth of)
 * was measured and dropped: it kept other users' questions out, but in a key of a user's turns alone a real question is
 * mostly phrasing the key never held ("the order of the three trips I took in the past three months" holds only
 * "trips"), and the gateway replay lost R@5 (docs/retrieval-quality.md).
 */

/** A word held by at least this share of the key's memories… */
const COMMON_SHARE = 0.2;
/** …and by at least this many of them is a common word of the key. */
const COMMON_MEMORIES = 50;
/** A number of one or two digits: common in any text. */
const SMALL_NUMBER = /^\d{1,2}$/;
/** A word whose stem ranks before this in English (0: "the") is an everyday word… */
const EVERYDAY_RANK = 3500;
/** …unless at least this share of the key's memories hold it… */
const TOPIC_SHARE = 0.05;
/** …and it names a thing, ranks past this, or the query asks something: before it, what names nothing is talk. */
const TALK_RANK = 2000;
/** A query naming this many words past the everyday ones, none of which the key holds, is about something else. */
const RARE_NAMED = 3;

/** The pks of the keyword hits that are no evidence for the query, whose `words` were searched (in their order). */
export function weakKeywordMatches(query: string, words: readonly string[], hits: KeywordHits): Set<number> {
  const evidence = hits.rows.filter((row) => isEvidence(words, row.matched, hits));
  const asks = asksSomething(query);
  const tellingWords = words.map((word, i) => isTelling(word, hits.holding[i] ?? 0, hits.memories, asks));
  const telling = !aboutElse(words, hits.holding) && evidence.some((row) => row.matched.some((i) => tellingWords[i]));
  const kept = new Set(telling ? evidence : []);
  return new Set(hits.rows.filter((row) => !kept.has(row)).map((row) => row.pk));
}

/**
 * Whether the query names things the key never speaks of: RARE_NAMED or more words past the everyday ones, not one of
 * them held by any of the key's memories. Its everyday words then match the key's conversations by coincidence
 * ("Did the espresso grinder and the waffle iron arrive for my sister's party?" of a key that talks of a party).
 */
function aboutElse(words: readonly string[], holding: readonly number[]): boolean {
  const rare = words.flatMap((word, i) => (isRare(word) ? [holding[i] ?? 0] : []));
  return rare.length >= RARE_NAMED && rare.every((held) => held === 0);
}

/** A word past English's everyday ones: not a small number, not a chat formula, ranked late or not at all. */
function isRare(word: string): boolean {
  if (SMALL_NUMBER.test(word)) return false;
  const english = englishWord(word);
  return english === undefined || (!english.formula && english.rank >= EVERYDAY_RANK);
}

/** A question: a question mark, or a first word that opens one ("when do deploys run"). */
const QUESTION =
  /\?|^\W*(?:what|when|where|who|whom|whose|which|why|how|do|does|did|is|are|was|were|am|can|could|should|would|will|shall|may|might|have|has|had)\b/i;

/** Whether the query asks something: a question, or about what the user or the assistant said. */
export function asksSomething(query: string): boolean {
  return QUESTION.test(query) || askedSpeaker(query) !== null;
}

/**
 * Whether a query word a key's memories hold says the query is about them: a word that is not an everyday one in
 * English, or one the key holds in a twentieth of its memories unless it is talk (among the commonest, naming nothing)
 * in a query that `asks` nothing. Small numbers and chat formulas ("thanks", "okay") never are.
 */
export function isTelling(word: string, holding: number, memories: number, asks: boolean): boolean {
  if (SMALL_NUMBER.test(word)) return false;
  const english = englishWord(word);
  if (english === undefined) return true;
  if (english.formula) return false;
  if (english.rank >= EVERYDAY_RANK) return true;
  const topic = holding > 0 && holding >= TOPIC_SHARE * memories;
  return topic && (english.namesAThing || english.rank >= TALK_RANK || asks);
}

export interface EnglishWord {
  /** Its rank in English by its stem's most common word (0: "the"). */
  rank: number;
  /** Read alone, it is a noun, a name or a number. */
  namesAThing: boolean;
  /** A chat formula: a greeting, thanks, an apology, yes or no. It says how a message talks, never what about. */
  formula: boolean;
}

/** Marks a word of englishRanks.data.ts that names a thing, and one that is a chat formula. */
const NAMES_A_THING = '*';
const FORMULA = '!';

let english: Map<string, EnglishWord> | null = null;

/** The word in the background model of English, or undefined past the table's end (a rarer word). */
export function englishWord(word: string): EnglishWord | undefined {
  if (english === null) {
    english = new Map();
    for (const line of ENGLISH_RANKS.split('\n')) {
      const [rank, ...forms] = line.split(' ');
      for (const form of forms) {
        const namesAThing = form.endsWith(NAMES_A_THING);
        const formula = form.endsWith(FORMULA);
        english.set(namesAThing || formula ? form.slice(0, -1) : form, { rank: Number(rank), namesAThing, formula });
      }
    }
  }
  return english.get(word.toLowerCase());
}

/** Whether a memory holding these of the query's words (indices into `words`) is evidence for the query. */
export function isEvidence(
  words: readonly string[],
  matched: readonly number[],
  { memories, holding }: Pick<KeywordHits, 'memories' | 'holding'>,
): boolean {
  if (matched.length !== 1) return matched.length > 1;
  const only = matched[0]!;
  const n = holding[only] ?? 0;
  return !(SMALL_NUMBER.test(words[only] ?? '') || (n >= COMMON_MEMORIES && n >= COMMON_SHARE * memories));
}
