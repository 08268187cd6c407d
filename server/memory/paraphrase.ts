/**
 * One memory per fact: whether two texts state the same fact in other words. Lexical and conservative, since a wrong
 * merge hides a fact while a missed one only costs tokens: the texts' content words must be the same set once
 * normalised (case, punctuation, British and American spellings, plural and third-person "s", the words that carry no
 * fact: pronouns, articles, auxiliaries, hedges such as "really" or "honestly"), with one allowance: one text may add a
 * single word, which makes it the more specific wording, unless that word changes what the other says (a negation, a
 * person, a tense or a hypothetical: "used to", "my sister", "would").
 *
 * Negations stay content words, so "likes Python" and "doesn't like Python" never match; a different object is a
 * different word, so "likes Python" and "likes Rust" never match. Word vectors are not used to decide: the static
 * model's nearest words are as often opposites or siblings (early/late 0.91, coffee/tea 0.77) as synonyms
 * (mode/theme 0.46), so a similarity threshold that merged synonyms would merge those too (docs/your-data.md).
 */

/** Words that state no fact of their own. */
const FILLER: ReadonlySet<string> = new Set(
  (
    'i me my mine myself we us our ours you your yours it its this that these those the a an some any ' +
    'am is are was were be been being do does did done have has had having to of in on at for with by from as ' +
    'and or but so than then there here where which who whom what when how also too ' +
    'really honestly actually truly genuinely definitely certainly totally absolutely just quite very pretty much ' +
    'lot lots bit kind of sort personally generally usually basically simply still indeed rather ' +
    'something thing things one every each always all'
  ).split(' '),
);

/**
 * Nouns that name a setting or a kind rather than a thing (the "mode" of "dark mode", the "theme" of "dark theme"):
 * one word for all of them, so the modifier, which carries the fact, decides.
 */
const KIND_WORDS = new Set(['mode', 'theme', 'scheme', 'style', 'setting', 'option', 'variant', 'version', 'look']);

/** Words that change what a text says when one text adds them: never the "one more word" of a more specific wording. */
const MEANING_CHANGERS = new Set(
  (
    'not no never nothing nobody none nor without neither anymore longer stopped stop quit dislike hate ' +
    'used former formerly previously ex once before until since ago past later future soon next last ' +
    'would could should might may must will shall going want wish hope plan planning consider considering if maybe perhaps ' +
    'mother father mom dad mum parent parents sister brother sibling wife husband partner boyfriend girlfriend son daughter ' +
    'child children kid kids friend colleague coworker boss manager team family he she they him her them his hers their ' +
    'only except but less more most least'
  ).split(' '),
);

/** Spellings that differ only by variety of English. */
const SPELLINGS: Record<string, string> = { favourite: 'favorite', colour: 'color', organise: 'organize', centre: 'center' };

const KIND = '~kind';

/** Words that make the order of the others part of the fact: "tabs over spaces" is not "spaces over tabs" (numbers too). */
const ORDERED = new Set(['over', 'than', 'instead', 'rather', 'versus', 'vs', 'from', 'to', 'into', 'before', 'after']);

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

/** A word as compared: lower-case, one spelling, singular (plural and third-person "s" taken off). */
function normalWord(raw: string): string[] {
  let w = raw.toLowerCase();
  if (w.endsWith("n't")) return [w === "can't" || w === "won't" ? w.slice(0, 2) : w.slice(0, -3), 'not'];
  w = w.replace(/'(s|re|ve|ll|d|m)$/, '');
  w = SPELLINGS[w] ?? w;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  w = SPELLINGS[w] ?? w;
  return [KIND_WORDS.has(w) ? KIND : w];
}

/** The content words of a text, in order, each once: what two wordings of one fact share; and whether order counts. */
export function factWords(text: string): { words: Set<string>; ordered: boolean } {
  const words = new Set<string>();
  let ordered = false;
  for (const raw of text.match(WORD) ?? []) {
    // A number's place is part of the fact: "room 3 at 5" is not "room 5 at 3".
    if (ORDERED.has(raw.toLowerCase()) || /^\p{N}/u.test(raw)) ordered = true;
    for (const w of normalWord(raw)) if (!FILLER.has(w)) words.add(w);
  }
  return { words, ordered };
}

export type Paraphrase = 'same' | 'first-more-specific' | 'second-more-specific' | null;

/** Whether two texts state the same fact, and which wording says more; null when they may not be merged. */
export function paraphrase(first: string, second: string): Paraphrase {
  const { words: a, ordered: aOrdered } = factWords(first);
  const { words: b, ordered: bOrdered } = factWords(second);
  // Where order counts, only the same words in the same order are the same fact, and no wording adds one.
  if (aOrdered || bOrdered) return a.size >= 2 && [...a].join(' ') === [...b].join(' ') ? 'same' : null;
  // A fact of one content word ("Python") is too little to tell it from another text holding that word.
  if (a.size < 2 || b.size < 2) return null;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (large.size - small.size > 1) return null;
  for (const w of small) if (!large.has(w)) return null;
  if (large.size === small.size) return 'same';
  const added = [...large].find((w) => !small.has(w))!;
  if (MEANING_CHANGERS.has(added) || /^\d/.test(added)) return null;
  return large === a ? 'first-more-specific' : 'second-more-specific';
}

/** Texts of up to this many content words are indexed with each word left out too (short facts: "Lives in Berlin"). */
export const MAX_WORDS_LEFT_OUT = 6;

/**
 * What two texts share exactly when paraphrase() calls them the same (`whole`): their content words, in order where
 * order counts, else sorted; and the same with one word left out (`leftOut`), which one text shares with a wording that
 * adds that word, the more specific one. Words paraphrase() never lets a wording add (a negation, a person, a number)
 * are never left out, and an ordered text has only its whole signature: it is only ever the same as another. Null for a
 * text of fewer than two content words. `maxLeftOut`: a text of more content words gets no leftOut.
 */
export function factSignatures(text: string, maxLeftOut = MAX_WORDS_LEFT_OUT): { whole: string; leftOut: string[] } | null {
  const { words, ordered } = factWords(text);
  if (words.size < 2) return null;
  if (ordered) return { whole: `>${[...words].join(' ')}`, leftOut: [] };
  const sorted = [...words].sort();
  const leftOut =
    sorted.length < 3 || sorted.length > maxLeftOut
      ? []
      : sorted.filter((w) => !MEANING_CHANGERS.has(w) && !/^\d/.test(w)).map((w) => sorted.filter((x) => x !== w).join(' '));
  return { whole: sorted.join(' '), leftOut };
}

/** A text's whole signature (factSignatures), for matching many texts at once (an import). */
export function factSignature(text: string): string | null {
  return factSignatures(text, 0)?.whole ?? null;
}
