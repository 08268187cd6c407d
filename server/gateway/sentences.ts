/**
 * Chat text cut into sentences and clauses, offsets kept: the units extraction reads. Linear in the input (no
 * regex with nested unbounded quantifiers).
 */
/** The newest `max` characters, starting after the first sentence (or word) boundary so no fragment is mined. */
export function keepTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = text.slice(text.length - max);
  for (let i = 0; i < tail.length; i++) {
    if (endsSentence(tail, i)) return tail.slice(i + 1);
  }
  const space = tail.search(/\s/u);
  if (space >= 0) return tail.slice(space + 1);
  return isLowSurrogate(tail.charCodeAt(0)) ? tail.slice(1) : tail;
}

const HARD_SENTENCE_ENDS = new Set(['\n', '\r', '\u2028', '\u2029', '。', '！', '？', '…']);
const SOFT_SENTENCE_ENDS = new Set(['.', '!', '?']);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** `.`, `!` and `?` end a sentence only when no letter or digit follows, which keeps "Node.js", "3.11" and "a?b" whole. */
function endsSentence(text: string, i: number): boolean {
  const ch = text.charAt(i);
  if (HARD_SENTENCE_ENDS.has(ch)) return true;
  if (!SOFT_SENTENCE_ENDS.has(ch)) return false;
  const next = text.codePointAt(i + 1);
  return next === undefined || !LETTER_OR_DIGIT.test(String.fromCodePoint(next));
}

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!endsSentence(text, i)) continue;
    sentences.push(text.slice(start, i + 1));
    start = i + 1;
  }
  sentences.push(text.slice(start));
  return sentences;
}

/** Curly and other look-alike apostrophes become "'", one character for one, so offsets stay valid. */
export function straightenApostrophes(text: string): string {
  return text.replace(/[\u2018\u2019\u02BC\u00B4\u0060\u2032\uFF07]/gu, "'");
}

const SUBJECT = String.raw`(?:i|we|my|let's|let\s+us)(?![\p{L}\p{N}])`;
/** The start of a question or request tacked onto a statement: "I'm learning Rust, any tips?" */
const QUESTION_TAIL = String.raw`(?:any|how|what|why|where|when|who|can|could|would|should|do|does|did|is|are|thoughts|ideas|suggestions|tips|advice|help|right|ok|okay|please)(?![\p{L}\p{N}])`;

/**
 * Where a clause (and so a fact's object) ends: hard punctuation, a connective ("but", "because", "which"), a
 * new first-person subject ("..., and I hate Java") or a tacked-on question ("..., any tips?"). Commas inside lists
 * ("Python, Go and Rust") do not end it.
 * ", I" after "every morning" is the habit pattern's own comma, not a break.
 */
const CLAUSE_BREAK = new RegExp(
  [
    String.raw`\s*[;()\[\]{}]\s*`,
    String.raw`:\s+`,
    String.raw`,?\s+(?=(?:but|because|although|though|whereas|unless|however|which|since)(?![\p{L}\p{N}]))`,
    String.raw`,?\s+(?:and|or|so|then)\s+(?=${SUBJECT})`,
    String.raw`(?<!(?:every|each)\s+\p{L}+),\s*(?=${SUBJECT})`,
    String.raw`,\s*(?=${QUESTION_TAIL})`,
  ].join('|'),
  'giu',
);

export interface Clause {
  text: string;
  start: number;
}

export function splitClauses(sentence: string): Clause[] {
  const clauses: Clause[] = [];
  let start = 0;
  for (const m of sentence.matchAll(CLAUSE_BREAK)) {
    clauses.push({ text: sentence.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  clauses.push({ text: sentence.slice(start), start });
  return clauses;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
