/**
 * What the retrieval benchmarks ask: questions a user would type to a chat assistant, built from the words the
 * seeder writes (text.ts), so the keyword tier finds something. Each question mixes selective words (an object
 * such as "spicy ramen", a ticket number) with common ones ("user", "team", "the", "about"), and consecutive calls
 * ask different questions, so no cache sees the same query twice in a row.
 */
import { pick, rng, sentence, WORD_LISTS } from './text.ts';

const { SUBJECTS, VERBS, OBJECTS, MODIFIERS, NAMES } = WORD_LISTS;
const lower = (s: string) => (s.startsWith('The ') ? `the ${s.slice(4)}` : s);

const TEMPLATES: ((r: () => number) => string)[] = [
  (r) => `What do you remember about ${pick(r, OBJECTS)}?`,
  (r) => `Did ${lower(pick(r, SUBJECTS))} mention anything about ${pick(r, OBJECTS)} ${pick(r, MODIFIERS)}?`,
  (r) => `Remind me what ${lower(pick(r, SUBJECTS))} ${pick(r, VERBS)} last time.`,
  (r) => `Any update on ${pick(r, NAMES)} ${1000 + Math.floor(r() * 9000)} and ${pick(r, OBJECTS)}?`,
  (r) => `Who ${pick(r, VERBS)} ${pick(r, OBJECTS)} and ${pick(r, OBJECTS)}?`,
  (r) => `Can you help me plan ${pick(r, OBJECTS)} ${pick(r, MODIFIERS)}? I think ${lower(pick(r, SUBJECTS))} ${pick(r, VERBS)} it.`,
  (r) => `What is the latest on ${pick(r, OBJECTS)}?`,
  (r) => `the user ${pick(r, VERBS)} what again`,
];

/** An endless, deterministic sequence of varied questions; two streams with the same seed ask the same ones. */
export function questionStream(seed: number): () => string {
  const random = rng(seed);
  return () => pick(random, TEMPLATES)(random);
}

/** The kinds of first-person statements extraction looks for, to sprinkle into chat text. */
const STATEMENTS: ((r: () => number) => string)[] = [
  (r) => `I prefer ${pick(r, OBJECTS)} ${pick(r, MODIFIERS)}.`,
  (r) => `I really like ${pick(r, OBJECTS)}, but only on weekends.`,
  (r) => `I don't like ${pick(r, OBJECTS)}.`,
  (r) => `I hate ${pick(r, OBJECTS)} because it keeps timing out.`,
  (r) => `My favourite thing about the office is ${pick(r, OBJECTS)}.`,
  () => `I work at Acme Robotics as a backend developer.`,
  () => `I'm a senior data engineer based in Lisbon.`,
  (r) => `I'm trying to finish ${pick(r, OBJECTS)} before Friday.`,
  () => `I want to learn Rust this year.`,
  (r) => `We'll use Postgres for ${pick(r, OBJECTS)} from now on.`,
  () => `Every morning I review the deploy pipeline before standup.`,
];

const CHATTER = [
  'Thanks, that makes sense.',
  'Could you explain that again in simpler terms?',
  'Here is the error message I get when I run the build:',
  'Sure, here is a short summary of the options we discussed.',
  'Let me know if you need more details.',
  'That worked, but now the tests fail on CI.',
];

/**
 * Chat text of about `chars` characters (one or more messages' worth), as a gateway would pass to extraction:
 * mostly third-person and conversational sentences, with a first-person fact every ~`factEvery` sentences.
 */
export function chatText(seed: number, chars: number, factEvery = 6): string {
  const random = rng(seed);
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const piece =
      i % factEvery === factEvery - 1 ? pick(random, STATEMENTS)(random) : random() < 0.2 ? pick(random, CHATTER) : sentence(random);
    parts.push(piece);
    length += piece.length + 1;
    if (random() < 0.15) {
      parts.push('\n\n');
      length += 2;
    }
  }
  return parts.join(' ').slice(0, chars);
}

/** An OpenAI chat completions request of `messages` messages: a system prompt, user/assistant turns, and a closing question. */
export function chatRequest(seed: number, messageCount = 10): { model: string; messages: { role: string; content: string }[] } {
  const random = rng(seed);
  const ask = questionStream(seed + 1);
  const messages = [{ role: 'system', content: 'You are a helpful assistant for a small software team. Answer briefly.' }];
  for (let i = 0; i < messageCount - 2; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    messages.push({ role, content: chatText(Math.floor(random() * 1e9), 200 + Math.floor(random() * 400)) });
  }
  messages.push({ role: 'user', content: ask() });
  return { model: 'gpt-4o-mini', messages };
}
