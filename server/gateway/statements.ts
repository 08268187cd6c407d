import { straightenApostrophes } from './sentences.ts';

/**
 * Whether a rule's match is the user stating something: not a question, a supposition, a quotation or someone else's
 * words reported. Each check reads a bounded stretch before the match.
 */

/** "Do I like…", "should I always…", "if I use…", "imagine I moved…" ask or suppose; they do not state a fact. */
const NON_STATEMENT_LEADS = new Set(
  'do does did should would could can will shall may might must am are is was were have has had if whether unless why how what when whenever where who whom which wish suppose supposing imagine pretend'.split(
    ' ',
  ),
);

export function isQuestionOrCondition(clause: string, index: number): boolean {
  const before = /([\p{L}']+)\s*$/u.exec(clause.slice(Math.max(0, index - 24), index));
  return before !== null && NON_STATEMENT_LEADS.has((before[1] ?? '').toLowerCase());
}

/** Words that report what someone else said or thinks: "she said I moved to Berlin" is hers, not the user's statement. */
const REPORTING = new Set(
  'said says say told tells asked asks wrote writes claimed claims thinks thought believes believed heard mentioned reckons quoted joked replied'.split(
    ' ',
  ),
);
const QUOTE_OPENS = new Set(['"', '“', '«', '„']);
const QUOTE_CLOSES = new Set(['"', '”', '»']);

/** How far back a quotation is looked for: bounds the work per fact, so a long sentence of many facts stays linear. */
const QUOTE_REACH = 300;

/** Whether the fact at `at` stands inside a quotation or after a reporting verb ("… said (that)", "… wrote:"). */
export function isReported(sentence: string, at: number): boolean {
  const before = straightenApostrophes(sentence.slice(Math.max(0, at - QUOTE_REACH), at));
  let open = false;
  for (let i = 0; i < before.length; i++) {
    const ch = before.charAt(i);
    if (ch === '"') open = !open;
    else if (QUOTE_OPENS.has(ch)) open = true;
    else if (QUOTE_CLOSES.has(ch)) open = false;
    else if (ch === "'" && (i === 0 || /\s/u.test(before.charAt(i - 1)))) open = true;
    else if (ch === "'" && (i + 1 === before.length || /[\s,.;:!?]/u.test(before.charAt(i + 1)))) open = false;
  }
  if (open) return true;
  const lead = /(\p{L}+)(?:\s+(?:me|us|him|her|them|everyone))?[\s,:]*(?:that\s+)?$/iu.exec(before.slice(Math.max(0, before.length - 40)));
  return lead !== null && REPORTING.has((lead[1] ?? '').toLowerCase());
}
