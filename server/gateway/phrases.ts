import type { FactCategory, FactPolarity, Replaced } from './extraction.ts';

/**
 * The building blocks of extraction's rules (extraction.ts, changeRules.ts): what a rule matches and what it makes of
 * its object. Every fragment is bounded, so a rule's work stays linear in the clause.
 */

export type Groups = Partial<Record<string, string>>;

export interface Description {
  polarity: FactPolarity;
  content: string;
  /** Key namespace and the text the key is derived from. */
  key: readonly [prefix: string, text: string];
  /** Said as a change: what the fact replaces (gateway/supersessionRules.ts decides which memories that is). */
  replaces?: Replaced;
  /** When the match says more than its rule's category: "moved to Berlin" is where the user lives, not a switch. */
  category?: FactCategory;
}

export interface Pattern {
  category: FactCategory;
  /** Matches the trigger phrase; the object is the `object` group if there is one, else the rest of the clause. */
  regex: RegExp;
  /**
   * The fact, or undefined when the match turns out not to state one ("I moved to the backend team" is no address).
   * `rest` is the clause after the match before the object was cleaned, where "anymore" stands.
   */
  describe(object: string, groups: Groups, rest: string): Description | undefined;
}

export const pattern = (source: string) => new RegExp(source, 'iu');
export const WORD_START = String.raw`(?<![\p{L}\p{N}'])`;
export const WORD_END = String.raw`(?![\p{L}\p{N}])`;
export const I = `${WORD_START}i`;
export const I_AM = String.raw`${I}(?:'m|\s+am)`;
export const I_OR_WE = `${WORD_START}(?:i|we)`;
export const ADVERB = String.raw`(?:(?:really|truly|absolutely|definitely|genuinely|honestly|totally|actually|also|just|still|generally|personally|currently|now|much|do|kind\s+of|sort\s+of)\s+)?`;
export const NOT = String.raw`(?:don't|do\s+not|dont|no\s+longer)`;
export const ROLE_NOUN = `(?:developer|engineer|programmer|dev|coder|designer|architect|scientist|analyst|researcher|student|teacher|professor|manager|consultant|administrator|admin|sysadmin|tester|writer|founder|freelancer)s?`;
/** "I usually prefer X" states a preference, not a habit of preferring: the frequency is dropped. */
export const HABITUALLY = String.raw`(?:(?:always|usually|normally|typically|generally|often|mostly|tend\s+to|try\s+to)\s+)?`;

export const word = (groups: Groups, name: string) => (groups[name] ?? '').toLowerCase().replace(/\s+/gu, ' ');
export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
