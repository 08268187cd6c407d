/**
 * Deterministic, varied English for seeding and for create inputs: a seeded PRNG and a few sentence
 * templates over small word lists, so runs are repeatable and FTS sees a realistic spread of words.
 */

/** mulberry32: tiny, fast, good enough for test data; the same seed always gives the same stream. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const SUBJECTS = [
  'The user',
  'She',
  'He',
  'They',
  'The team',
  'Our client',
  'The customer',
  'My manager',
  'The on-call engineer',
  'The product owner',
  'Alice',
  'Bob',
  'Priya',
  'Marco',
  'The design lead',
  'The new hire',
  'The landlord',
  'Grandma',
];
const VERBS = [
  'prefers',
  'asked about',
  'mentioned',
  'is allergic to',
  'wants to migrate',
  'scheduled',
  'dislikes',
  'recommended',
  'is working on',
  'forgot about',
  'complained about',
  'signed up for',
  'cancelled',
  'keeps postponing',
  'approved',
  'needs help with',
  'is excited about',
  'reviewed',
  'documented',
  'is worried about',
];
const OBJECTS = [
  'dark roast coffee',
  'the quarterly report',
  'a vegetarian menu',
  'the staging database',
  'the Kubernetes upgrade',
  'the Berlin office',
  'a standing desk',
  'the deploy pipeline',
  'peanut butter',
  'the marketing budget',
  'the mobile app release',
  'weekly one-on-ones',
  'the invoice from March',
  'a trip to Lisbon',
  'the onboarding checklist',
  'Python type hints',
  'the flaky integration tests',
  'the gym membership',
  'the password manager',
  'the Postgres backups',
  'the customer survey',
  'a dentist appointment',
  'the holiday schedule',
  'the API rate limits',
  'the team offsite',
  'the new logo',
  'spicy ramen',
  'the security audit',
  'the rental contract',
  'the piano lessons',
];
const MODIFIERS = [
  'every Monday morning',
  'before the next deploy',
  'since last spring',
  'during the offsite',
  'after the outage',
  'for the third time',
  'in the standup',
  'over email',
  'when the build breaks',
  'at the end of the sprint',
  'on weekends',
  'before lunch',
  'in the retro',
  'for the board meeting',
  'while travelling',
];
const CLAUSES = [
  'because the old one kept timing out',
  'so remind them next week',
  'and wants a summary by Friday',
  'but only if the budget allows it',
  'which took two hours to fix',
  'and it should stay that way',
  'although nobody agreed on a date',
  'since it saves about an hour a day',
  'and the ticket is still open',
  'so check the calendar first',
];
const NAMES = ['ticket', 'order', 'invoice', 'issue', 'case', 'room'];

/** The seeder's word lists, for queries and generated models built from the words the seeded text holds. */
export const WORD_LISTS = { SUBJECTS, VERBS, OBJECTS, MODIFIERS, CLAUSES, NAMES } as const;

/** One or two sentences, 8 to 40 words: the size of a typical extracted memory. */
export function sentence(random: () => number): string {
  const parts = [pick(random, SUBJECTS), pick(random, VERBS), pick(random, OBJECTS)];
  if (random() < 0.7) parts.push(pick(random, MODIFIERS));
  if (random() < 0.4) parts.push(pick(random, CLAUSES));
  if (random() < 0.3) parts.push(`(${pick(random, NAMES)} ${1000 + Math.floor(random() * 9000)})`);
  let text = `${parts.join(' ')}.`;
  if (random() < 0.35) {
    const more = [pick(random, SUBJECTS), pick(random, VERBS), pick(random, OBJECTS)];
    if (random() < 0.5) more.push(pick(random, MODIFIERS));
    text += ` ${more.join(' ')}.`;
  }
  return text;
}

/** A word that appears in a few percent of generated sentences; used by the search benchmarks. */
export const SEARCH_WORD = 'deploy';
