import { createHash } from 'node:crypto';
import { wordlist as bip39English } from '@scure/bip39/wordlists/english.js';
import { STOP_WORDS } from '../search/stopWords.ts';

/**
 * Whether a sentence holds a credential, so that extraction never stores it. Deliberately eager: a false positive
 * loses one fact, a false negative stores a password. Three detectors:
 *  - credential phrasings: a credential word (password and its misspellings and leetspeak, passphrase, passcode, PIN,
 *    API key, secret, token, ...) followed by a value ("my wifi password for the office is hunter2", "passw0rd
 *    hunter2", "pin: 4821"), or a value said to be one ("hunter2 is my password");
 *  - known key formats (sk-..., ghp_..., AKIA..., private key armour, bearer tokens) and card numbers (Luhn);
 *  - random-looking runs of 20+ characters with any prefix (mnemo_..., a bare token): mixed character classes that do
 *    not read as words;
 *  - a wallet's seed phrase written out bare: twelve or more words in a row from BIP-39's word list.
 * Every regex runs on whitespace-collapsed text without nested unbounded quantifiers, so the work stays linear.
 */
export function containsSecret(text: string): boolean {
  if (typeof text !== 'string') return false;
  const flat = text.replace(/\s+/gu, ' ').trim();
  const key = createHash('sha256').update(flat).digest('base64');
  const known = verdicts.get(key);
  if (known !== undefined) {
    verdicts.delete(key);
    verdicts.set(key, known);
    return known;
  }
  const found =
    KNOWN_FORMATS.some((p) => p.test(flat)) ||
    containsCredentialPhrase(flat) ||
    containsRandomRun(flat) ||
    containsCardNumber(flat) ||
    containsSeedPhrase(flat);
  verdicts.set(key, found);
  if (verdicts.size > VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!);
  return found;
}

/**
 * The latest sentences' verdicts, least recently used first out. One message is checked by extraction and again by
 * turn capture, and a conversation's earlier messages again with every request that carries them (their turn keys);
 * the detectors cost far more than a hash. Keyed by the sentence's hash, so no text stays in memory.
 */
const verdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 4096;

const KNOWN_FORMATS: readonly RegExp[] = [
  /(?<![A-Za-z0-9])mnemo_[A-Za-z0-9_-]{43}/,
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/,
  /(?<![A-Za-z0-9])[rs]k_(?:live|test)_[A-Za-z0-9]{10,}/,
  /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/,
  /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/,
  /(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{35}/,
  /(?<![\p{L}\p{N}])bearer\s+(?=\S*\d)[A-Za-z0-9._~+/-]{8,}/iu,
  /-----(?:BEGIN|END) [A-Z0-9 ]*PRIVATE KEY-----/,
];

// ---------------------------------------------------------------------------------------------------------------
// Credential phrasings

/** Leetspeak undone one character for one (so offsets stay valid): p4ssw0rd, pa$$word, p@ss. */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const unleet = (text: string) => text.replace(/[013457@$]/g, (c) => LEET[c] ?? c);

/** What opens a door, a gate or a safe: "door code", "alarm code", "safe combination", "the code for the front door". */
const LOCK_PLACE = '(?:door|gate|garage|alarm|safe|lockbox|keypad|building|apartment|house|entry|lock)';
const LOCK_CODE = String.raw`(?:${LOCK_PLACE}\s?(?:code|combination)|code(?=\s+(?:to|for|of)\s+(?:the|my|our)\s+(?:\S+\s+)?${LOCK_PLACE}s?(?![\p{L}\p{N}])))`;
/** A wallet's seed: "seed phrase", "recovery words", "mnemonic phrase". */
const SEED_WORDS = String.raw`(?:seed|recovery|mnemonic|wallet|backup)\s?(?:phrase|words)`;

/**
 * Words that name a credential, spelled as people type them: password with its usual misspellings (pasword, passwrd,
 * passowrd, pssword), passwd, pwd, pw, pass phrase, pass code, PIN (code/number), keys and tokens of APIs.
 */
const STRONG = String.raw`(?:pass?w(?:or|ro|o)?r?d|passowrd|pssword|passwort|pwd?|pword|pass\s?phrase|pass\s?code|pin(?:\s?(?:code|number))?|api\s?key|access\s?key|secret\s?key|private\s?key|client\s?secret|(?:auth|access|refresh|api|bearer|session)\s?token|login\s?code|one[\s-]?time\s?code|${LOCK_CODE}|${SEED_WORDS})`;
/** Words that name a credential only when a value follows them: "the secret is patience" is no secret. */
const WEAK = '(?:secret|token|credentials?)';
const WORD_START = String.raw`(?<![\p{L}\p{N}])`;
const WORD_END = String.raw`(?![\p{L}\p{N}])`;
const CREDENTIAL_WORD = new RegExp(`${WORD_START}(?:(${STRONG})|${WEAK})s?${WORD_END}`, 'giu');

/** "for the office wifi", "of my bank account": up to four words that say which credential, before the verb. */
const QUALIFIER = String.raw`(?:\s+(?:for|of|to|on|at|in|from)(?:\s+[^\s:=]+){1,4}?)?`;
/** What joins the word to its value: ": ", " = ", " is ", "'s ", " is set to ". Markdown's "**" is no value. */
const JOIN_SIGN = String.raw`\s*(?:[:=]|->)\s*["'“‘]?[^\s*]`;
const JOIN_ANY = new RegExp(`^${QUALIFIER}${JOIN_SIGN}`, 'iu');
/** After a weak word only the sign itself: "the secret to good quinoa: rinse it" names no credential. */
const JOIN_ANY_WEAK = new RegExp(`^${JOIN_SIGN}`, 'iu');
const JOIN_VERB = new RegExp(
  String.raw`^${QUALIFIER}(?:['’]s|\s+(?:is|was|will\s+be|is\s+now|is\s+still|has\s+been|equals|reads|becomes|(?:is\s+)?(?:set|changed)\s+to))\s+["'“‘]?(\S+)`,
  'iu',
);
/** A word that cannot be the value itself: "my password is the name of my dog", "the password was wrong". */
const NOT_A_VALUE = new Set(
  `a an the my your our his her their its this that not no never too very so also still just now only same different
  in on at of for to from with by about like as into than
  strong weak long short safe secure insecure easy hard simple complex complicated required needed optional
  wrong right correct incorrect invalid valid expired reset changed saved stored encrypted hashed hidden empty blank
  case sensitive visible written somewhere there here missing lost forgotten unknown old new something anything
  one be use make include`.split(/\s+/),
);
/** A token that looks like a value rather than a word: it holds a digit or a symbol, or is quoted. */
const VALUE_LIKE = /^["'“‘]|[\d!#$%^&*@+=~|<>?]/u;
/** The credential word followed straight by a value-like token: "passw0rd hunter2", "PIN 4821". */
const DIRECT_VALUE = /^\s+(["'“‘]?[^\s,;.]+)/u;
/** A value said to be one: "hunter2 is my password". */
const VALUE_IS_CREDENTIAL = new RegExp(
  String.raw`${WORD_START}(\S+)\s+(?:is|was)\s+(?:my|the|our|your)(?:\s+\S+)?\s+${STRONG}(?=\s*(?:$|[.,;:!?]))`,
  'giu',
);

/** A value used as one: "I always use hunter2 as my password" (not "Bitwarden as my password manager"). */
const VALUE_AS_CREDENTIAL = new RegExp(
  String.raw`${WORD_START}(\S+)\s+as\s+(?:my|the|our|your)(?:\s+\S+)?\s+${STRONG}(?=\s*(?:$|[.,;:!?]|for\s|on\s|at\s|in\s))`,
  'giu',
);

/** A passphrase is words: "the passphrase correct horse battery staple" names three or more after the word itself. */
const PASSPHRASE_WORDS = /(?<![\p{L}\p{N}])pass\s?phrase\s+(\p{L}+)\s+(\p{L}+)\s+(\p{L}+)/giu;
const NOT_PASSPHRASE_WORDS = new Set([
  'manager',
  'managers',
  'generator',
  'protected',
  'prompt',
  'field',
  'policy',
  'reset',
  'hint',
  'strength',
]);

/** A value a credential was given: "I changed my password to bluebird". */
const SET_TO = new RegExp(
  String.raw`${WORD_START}(?:set|changed?|reset|updated?|switched)\s+(?:(?:my|the|our|your)\s+)?(?:\S+\s+)?${STRONG}\s+to\s+`,
  'giu',
);

function containsCredentialPhrase(flat: string): boolean {
  const plain = unleet(flat);
  for (const match of plain.matchAll(CREDENTIAL_WORD)) {
    const strong = match[1] !== undefined;
    // The value is read from the text as written: unleet turns the digits of "pin 4821" into letters.
    const rest = flat.slice(match.index + match[0].length);
    if ((strong ? JOIN_ANY : JOIN_ANY_WEAK).test(rest)) return true;
    const verb = JOIN_VERB.exec(rest);
    if (verb && isValue(verb[1]!, strong)) return true;
    const direct = DIRECT_VALUE.exec(rest);
    if (direct && isValue(direct[1]!, false)) return true;
  }
  for (const match of plain.matchAll(VALUE_IS_CREDENTIAL)) {
    if (isValue(flat.slice(match.index, match.index + match[1]!.length), true)) return true;
  }
  for (const match of plain.matchAll(VALUE_AS_CREDENTIAL)) {
    if (isValue(flat.slice(match.index, match.index + match[1]!.length), true)) return true;
  }
  for (const match of plain.matchAll(PASSPHRASE_WORDS)) {
    // "the passphrase is required for…", "…passphrase generator in my vault": fillers where a passphrase's words would be.
    const words = match.slice(1, 4).map((w) => w!.toLowerCase());
    const fillers = words.filter((w) => NOT_A_VALUE.has(w) || STOP_WORDS.has(w) || NOT_PASSPHRASE_WORDS.has(w)).length;
    if (fillers <= 1 && !STOP_WORDS.has(words[0]!) && !NOT_PASSPHRASE_WORDS.has(words[0]!)) return true;
  }
  for (const match of plain.matchAll(SET_TO)) {
    const value = /^\S+/.exec(flat.slice(match.index + match[0].length));
    if (value && isValue(value[0], true)) return true;
  }
  return false;
}

/** After a strong word any word but a filler is a value; after a weak one it must look like a value. */
function isValue(word: string, strong: boolean): boolean {
  const bare = word.replace(/[.,;:!?"”’')\]*]+$/u, '');
  if (bare === '') return false;
  return VALUE_LIKE.test(bare) || (strong && !NOT_A_VALUE.has(bare.toLowerCase()));
}

// ---------------------------------------------------------------------------------------------------------------
// Random-looking runs

const RUN = /[A-Za-z0-9+/=_-]{20,}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A short lower-case word and a separator before the random part: mnemo_, sk-, key_, token- */
const PREFIX = /^[a-z]{1,12}[_-]/;

/**
 * A run of 20+ token characters that looks random: 32+ hex digits with a digit among them, or letters and digits (or
 * both cases) of which less than half read as word-like pieces ("Synchronization", "Source", "Element").
 * Identifiers ("handleIncomingWebSocketMessage", "PostgreSQL15ReplicationSlot") are mostly such pieces; random base64
 * is not. Measured on random base64url: about 98% of 20-character runs are caught, 99% of 28, 99.9% of 43; of 8,200
 * runs from TypeScript's DOM types, React, graphql-js and Kysely (identifiers, paths), 0.2% are flagged. Runs with many
 * slashes are paths.
 */
function containsRandomRun(text: string): boolean {
  for (const [whole] of text.matchAll(RUN)) {
    if (UUID.test(whole)) continue;
    const slashes = whole.split('/').length - 1;
    if (slashes * 16 > whole.length) continue;
    const withoutPrefix = whole.replace(PREFIX, '');
    const run = withoutPrefix.length >= 20 ? withoutPrefix : whole;
    const alphanumerics = run.replace(/[^A-Za-z0-9]/g, '');
    if (/\d/.test(alphanumerics) && /^[0-9a-f]{32,}$/i.test(alphanumerics)) return true;
    // Words and numbers joined by dashes or underscores (gpt-4o-mini-2024-07-18, a date, a version) are not random:
    // random runs mix character classes within their parts.
    const parts = run.split(/[-_]/);
    if (parts.length > 1 && !parts.some((part) => part.length >= 4 && mixesClasses(part))) continue;
    if (mixesClasses(run) && wordShare(run, alphanumerics.length) < 0.5) return true;
  }
  return false;
}

/** Letters and digits, or both cases. */
const mixesClasses = (s: string) => (/\d/.test(s) && /[A-Za-z]/.test(s)) || (/[a-z]/.test(s) && /[A-Z]/.test(s));

/** Share of the characters in word-like pieces: 4+ letters, a fifth of them vowels, no 5 consonants in a row. */
function wordShare(run: string, length: number): number {
  let inWords = 0;
  for (const [piece] of run.matchAll(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g)) {
    if (piece.length < 4 || /[bcdfghjklmnpqrstvwxz]{5}/i.test(piece)) continue;
    if (piece.replace(/[^aeiouy]/gi, '').length >= piece.length / 5) inWords += piece.length;
  }
  return inWords / Math.max(1, length);
}

// ---------------------------------------------------------------------------------------------------------------
// Seed phrases

/** The shortest seed a wallet writes: 12 words of BIP-39's English list of 2048. */
const SEED_LENGTH = 12;
const SEED_WORD_LIST: ReadonlySet<string> = new Set(bip39English);

/** A seed's words are drawn at random and seldom repeat; filler ("word word word…") is one list word again and again. */
const MIN_DISTINCT_IN_SEED = 10;

/** Twelve words in a row, each from the list: prose and ordinary lists ("milk eggs bread…") break off within a few. */
function containsSeedPhrase(text: string): boolean {
  let run: string[] = [];
  for (const raw of text.split(' ')) {
    const word = raw.replace(/[.,;:!?"”’')]+$/u, '').replace(/^["“‘'(]+/u, '');
    if (!SEED_WORD_LIST.has(word)) {
      run = [];
      continue;
    }
    run.push(word);
    if (run.length > SEED_LENGTH) run.shift();
    if (run.length === SEED_LENGTH && new Set(run).size >= MIN_DISTINCT_IN_SEED) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Card numbers

/** 13–19 digits, in groups of 3+ split by single spaces or dashes, that pass the Luhn check. */
function containsCardNumber(text: string): boolean {
  for (const [run] of text.matchAll(/\d+(?:[ -]\d+)*/g)) {
    const groups = run.split(/[ -]/);
    for (let first = 0; first < groups.length; first++) {
      let digits = '';
      for (let last = first; last < groups.length; last++) {
        const group = groups[last] ?? '';
        digits += group;
        if (group.length < 3 || digits.length > 19) break;
        if (digits.length >= 13 && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
