import { choiceNamed, findChoice, nameWords } from './choices.ts';
import type { Replaced } from './extraction.ts';
import { ADVERB, type Description, I, I_OR_WE, NOT, type Pattern, pattern, ROLE_NOUN, WORD_END } from './phrases.ts';

/**
 * The rules for facts said as a change ("I switched from Vim to Helix", "I moved to Berlin", "I no longer use Vim"):
 * each makes the new fact and, where the old one is not in the same slot anyway, says what it replaces. Past tense
 * only: "I'm thinking of switching" and "should I switch" change nothing.
 */

/** "I've just", "we have finally": between the subject and a change verb. */
const HAS = String.raw`(?:'ve|\s+have)?\s+(?:(?:just|recently|finally|actually|now|already|officially|eventually|since|also)\s+){0,2}`;
const MOVED = '(?:moved|relocated)';
const SWITCHED = String.raw`(?:switched|migrated|changed|transitioned|converted|moved)(?:\s+over)?`;
/** Said after an object, a change already made: "I don't use Vim anymore". */
const ANYMORE = /\bany\s?more\b|\bno\s+more\b/iu;
/** When a change happened, said after its object: "Berlin last month", "PostgreSQL in 2023". */
const WHEN_TAIL =
  /\s+(?:last\s+\p{L}+|this\s+(?:week|month|year|spring|summer|autumn|fall|winter)|in\s+(?:\d{4}|\p{Lu}\p{Ll}+)|(?:a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+of|several)\s+\p{L}+\s+ago|recently|yesterday|earlier\s+this\s+\p{L}+|for\s+(?:work|good))$/u;
const untimed = (object: string) => object.replace(WHEN_TAIL, '');

/** A place as people write it: capitalised words ("New York City"), at most four, and no chosen thing's name. */
function place(object: string): string | undefined {
  const name = /^\p{Lu}[\p{L}\p{M}.'-]*(?:\s+\p{Lu}[\p{L}\p{M}.'-]*){0,3}$/u.exec(untimed(object))?.[0];
  return name === undefined || findChoice(nameWords(name)) !== undefined ? undefined : name;
}

const livesIn = (place: string): Description => ({
  polarity: 'positive',
  content: `Lives in ${place}`,
  key: ['identity', 'location'],
  category: 'identity',
});

/** Whether the object opens with a chosen thing ("Helix", "the Helix editor"): what "I use X" is about. */
const namesChoice = (object: string) => (findChoice(nameWords(object).slice(0, 2))?.at ?? 2) < 2;

/** Without what it was switched from, the change is of the choice the new thing answers ("to Helix": the editor). */
function switched(said: string, from?: string): Description {
  const object = untimed(said);
  const content = from === undefined ? `Switched to ${object}` : `Switched from ${from} to ${object}`;
  const choice = findChoice(nameWords(object).slice(0, 2))?.category;
  const replaces = from !== undefined ? { object: from } : choice !== undefined ? { choice } : undefined;
  return { polarity: 'positive', content, key: ['uses', object], ...(replaces ? { replaces } : {}) };
}

const NO_LONGER = { employer: ['No longer works at', 'Does not work at'], location: ['No longer lives in', 'Does not live in'] };

/** A negative of a single-valued identity slot gets a key of its own: it must not take the place of the current value. */
const noLonger = (slot: 'employer' | 'location', object: string, changed: boolean): Description => ({
  polarity: 'negative',
  content: `${NO_LONGER[slot][changed ? 0 : 1]} ${object}`,
  key: ['identity', `former ${slot} ${object}`],
  replaces: { slot: `identity:${slot}`, object },
  category: 'identity',
});

/** What a stop or a quit is of: "using Vim" is of Vim, "my job at Acme" of an employer. */
function stopped(verb: string, object: string): Description | undefined {
  if (/^(?:by|at|for|to|in|on|there|here|and|when|after|before|because)(?:\s|$)/iu.test(object)) return undefined;
  const employer = /^(?:my\s+job\s+(?:at|with)|working\s+(?:at|for|with))\s+(.+)$/iu.exec(object)?.[1];
  if (employer !== undefined) return noLonger('employer', employer, true);
  const thing = object.replace(/^(?:using|on)\s+/iu, '');
  const label = /^quit/iu.test(verb) ? 'Quit' : /^gave/iu.test(verb) ? 'Gave up' : 'Stopped';
  return { polarity: 'negative', content: `${label} ${object}`, key: ['uses', thing], replaces: { object: thing } };
}

export const CHANGE_PATTERNS: readonly Pattern[] = [
  {
    category: 'preference',
    regex: pattern(String.raw`${I_OR_WE}${HAS}(?<verb>${SWITCHED}|${MOVED}|went)\s+from\s+(?<from>[^,;]{1,80}?)\s+(?:to|over\s+to)\s+`),
    describe: (object, g) => {
      const from = g.from ?? '';
      const [was, to] = [place(from), place(object)];
      const moved = /^(?:moved|relocated)/iu.test(g.verb ?? '') && was !== undefined && to !== undefined;
      return moved ? { ...livesIn(to), replaces: { slot: 'identity:location', object: was } } : switched(object, from);
    },
  },
  {
    category: 'preference',
    regex: pattern(String.raw`${I_OR_WE}${HAS}(?<verb>${SWITCHED}|${MOVED})\s+(?:back\s+)?to\s+`),
    describe: (object, g) => {
      if (namesChoice(object)) return switched(object);
      if (/^(?:moved|relocated)/iu.test(g.verb ?? '')) {
        const to = place(object);
        return to === undefined ? undefined : livesIn(to);
      }
      return switched(object);
    },
  },
  {
    category: 'preference',
    regex: pattern(
      String.raw`${I}(?:\s+${ADVERB}use|'ve\s+been\s+using|\s+have\s+been\s+using|'m\s+${ADVERB}using|\s+am\s+${ADVERB}using)\s+`,
    ),
    describe: (object) => (namesChoice(object) ? { polarity: 'positive', content: `Uses ${object}`, key: ['uses', object] } : undefined),
  },
  {
    category: 'preference',
    regex: pattern(String.raw`${I}\s+${ADVERB}(?<not>${NOT})\s+(?:use|work\s+(?<prep>at|for)|(?<live>live\s+in))\s+`),
    describe: (object, g, rest) => {
      const changed = ANYMORE.test(rest) || /^no/iu.test(g.not ?? '');
      if (g.prep !== undefined) return noLonger('employer', object, changed);
      if (g.live !== undefined) return noLonger('location', object, changed);
      return {
        polarity: 'negative',
        content: `${changed ? 'No longer uses' : 'Does not use'} ${object}`,
        key: ['uses', object],
        ...(changed ? { replaces: { object } } : {}),
      };
    },
  },
  {
    category: 'habit',
    regex: pattern(String.raw`${I_OR_WE}${HAS}(?<verb>stopped|quit|gave\s+up)\s+`),
    describe: (object, g) => stopped(g.verb ?? '', object),
  },
  {
    category: 'decision',
    regex: pattern(String.raw`${I_OR_WE}${HAS}changed\s+(?:my|our)\s+minds?\s+(?:about|on|regarding)\s+`),
    describe: (object) => {
      const choice = choiceNamed(object);
      return {
        polarity: 'negative',
        content: `Changed their mind about ${object}`,
        key: ['changed-mind', object],
        replaces: choice === undefined ? { object } : { choice },
      };
    },
  },
  {
    category: 'identity',
    regex: pattern(
      String.raw`${I}${HAS}(?:started\s+(?:working|a\s+(?:new\s+)?job)|got\s+a\s+(?:new\s+)?job|took\s+a\s+(?:new\s+)?job)\s+(?<prep>at|for|with)\s+`,
    ),
    describe: (object, g) => ({
      polarity: 'positive',
      content: `Works ${g.prep === 'for' ? 'for' : 'at'} ${object}`,
      key: ['identity', 'employer'],
    }),
  },
  {
    category: 'identity',
    regex: pattern(String.raw`${I}${HAS}changed\s+my\s+name\s+to\s+`),
    describe: (object) => ({ polarity: 'positive', content: `Name is ${object}`, key: ['identity', 'name'] }),
  },
  {
    category: 'identity',
    // "I'm now a …" is extraction's own role rule, "now" being one of its adverbs.
    regex: pattern(String.raw`${I}${HAS}became\s+(?<article>an?)\s+(?<object>(?:\S+\s+){0,4}?${ROLE_NOUN})${WORD_END}`),
    describe: (object, g) => ({
      polarity: 'positive',
      content: `Is ${(g.article ?? 'a').toLowerCase()} ${object}`,
      key: ['identity', 'role'],
    }),
  },
];

/** "We'll use MySQL instead of PostgreSQL": the object chosen, and what it replaces. */
export function splitReplaced(object: string): { object: string; replaces?: Replaced } {
  const found = /^(.+?)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(.+)$/iu.exec(object);
  if (found === null) return { object };
  return { object: found[1] ?? object, replaces: { object: found[2] ?? '' } };
}
