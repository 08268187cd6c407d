import type { RetrievedMemory } from './retrieval.ts';

/**
 * Whose words a question is about. A captured conversation holds both sides, and they answer different questions:
 * "What did I buy for my sister?" is answered by what the user said ("I got her a yellow dress"), not by the
 * assistant's advice around it, which repeats the question's words at greater length and so outscores the fact on
 * keywords; "What did you recommend for the snapper?" is answered by the assistant. Memories carry their speaker in
 * `metadata.role` (gateway capture, conversation imports); those without one (facts, notes, documents) are left alone.
 */
export const SPEAKERS = ['user', 'assistant'] as const;
export type Speaker = (typeof SPEAKERS)[number];

/** The assistant's own words asked back: "you said", "did you recommend", "your suggestion". */
const ASKS_THE_ASSISTANT =
  /\byou\s+(?:\w+\s+)?(?:told|said|say|suggested|recommended|mentioned|gave|provided|listed|explained|shared|came up|helped|wrote|proposed|named|described|showed|offered|advised|made|created|remember(?:ed)?)\b|\byour\s+(?:recommendation|suggestion|advice|answer|list)s?\b|\bwhat you\b/i;
/** The user speaking of themselves. */
const FIRST_PERSON = /\b(?:i|my|me|mine|myself|i've|i'm|i'd)\b/i;
/**
 * Asking to be reminded of a past exchange: its answer may be on either side ("remind me how many eggs the omelette
 * needs" was the assistant's), so neither is preferred.
 */
const RECALLS_THE_TALK = /\bremind me\b|\bour\s+(?:previous|last|earlier)\s+(?:conversation|chat|discussion|talk)\b/i;

export function askedSpeaker(query: string): Speaker | null {
  if (ASKS_THE_ASSISTANT.test(query)) return 'assistant';
  if (FIRST_PERSON.test(query) && !RECALLS_THE_TALK.test(query)) return 'user';
  return null;
}

/**
 * How far a memory said by the asked speaker is raised, as a share of the ranking's score range (best minus
 * worst): a lift, not a multiple, since the fused scores are min–max normalised and the last hit's is 0. Measured on
 * LongMemEval (one memory per turn, both speakers; docs/retrieval-quality.md), R@5 with the package model: 0.3 →
 * 0.929, 0.5 → 0.935, 1 → 0.956. 1 puts every message of the asked speaker above every other, and questions about the
 * assistant's words lost (0.929 → 0.911): the other side's memory must still win when it matches far better.
 */
export const SPEAKER_LIFT = 0.5;

/** The ranking with the asked speaker's memories raised, best first; unchanged when no speaker is asked for. */
export function preferSpeaker(ranked: RetrievedMemory[], speaker: Speaker | null): RetrievedMemory[] {
  if (speaker === null || !ranked.some((c) => c.memory.metadata.role === speaker)) return ranked;
  const scores = ranked.map((c) => c.score);
  const high = Math.max(...scores);
  const range = high - Math.min(...scores);
  const lift = SPEAKER_LIFT * (range > 0 ? range : Math.abs(high) || 1);
  return ranked.map((c) => (c.memory.metadata.role === speaker ? { ...c, score: c.score + lift } : c)).sort((a, b) => b.score - a.score);
}
