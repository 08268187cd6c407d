import { createHash } from 'node:crypto';
import type { ConversationMessage } from '../memory/injection.ts';
import type { MemoryDeps } from '../memory/memory.service.ts';
import { CAPTURE_SOURCE, type Memory, type MemoryInput } from '../memory/memory.ts';
import { absentKeys, memoryRows, storeOnce, storeRowsOnce } from '../memory/storeOnce.ts';
import type { Settings } from '../settings/settings.service.ts';
import { LIMITS } from '../validation.ts';
import { type ExtractedFact, MAX_EXTRACTION_INPUT } from './extraction.ts';
import { containsSecret } from './secretFilter.ts';
import { keepTail, splitSentences } from './sentences.ts';
import { type FactDeps, type FactOrigin, storeFacts, storeFactsOfTurn } from './storeFacts.ts';

/**
 * Turn capture: a chat message kept as it was said, as an episodic memory of its session, so that what no extraction
 * rule recognises ("my sneakers are in the garage closet") can still be recalled. Secrets are redacted, long messages
 * cut into linked parts, and each message is keyed by its session and its text, so sending it again stores nothing.
 */

export const REDACTED = '[redacted]';

/** Whether the captureTurns setting keeps messages of this role. */
export function captures(setting: Settings['captureTurns'], role: ConversationMessage['role']): boolean {
  return setting === 'ALL' || (setting === 'USER' && role === 'user');
}

/**
 * The message with each secret taken out: a token this mnemo issued becomes "[redacted]" where it stands, and a
 * sentence the secret filter flags becomes "[redacted]" as a whole, so the rest of the message is kept.
 */
export function redactSecrets(text: string, knownSecrets: readonly string[]): string {
  return splitSentences(text)
    .map((sentence) => {
      const cleaned = knownSecrets.reduce((s, secret) => (secret === '' ? s : s.replaceAll(secret, REDACTED)), sentence);
      if (!containsSecret(cleaned)) return cleaned;
      const [, lead = '', trail = ''] = /^(\s*)[\s\S]*?(\s*)$/u.exec(cleaned) ?? [];
      return `${lead}${REDACTED}${trail}`;
    })
    .join('');
}

/** The message cut at sentence boundaries into parts of at most `max` characters, trimmed, none blank. */
export function turnParts(text: string, max: number = LIMITS.turnPartChars): string[] {
  const parts: string[] = [];
  let current = '';
  for (const sentence of splitSentences(text).flatMap((s) => cutLong(s, max))) {
    if (current.length + sentence.length > max) {
      parts.push(current);
      current = '';
    }
    current += sentence;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** A sentence longer than `max` cut at its last space before the limit, or at the limit without a space there. */
function cutLong(sentence: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    let at = space > 0 ? space + 1 : max;
    // Never between the two halves of a surrogate pair.
    if (at === max && /[\uD800-\uDBFF]/u.test(rest.charAt(at - 1))) at--;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  return [...pieces, rest];
}

export interface TurnToCapture extends ConversationMessage {
  apiKeyId: string;
  sessionId: string | null;
  /** When the message was said, if the caller knows; arrival otherwise. */
  occurredAt?: Date | null;
}

/**
 * The memories a message is captured as: one per part, keyed `turn:<session or "-">:<hash of role and text>` (":<n>"
 * after it for each part of a long message), each part naming its neighbours' keys.
 */
export function turnMemories(turn: TurnToCapture, knownSecrets: readonly string[]): MemoryInput[] {
  const text = redactSecrets(keepTail(turn.text, MAX_EXTRACTION_INPUT), knownSecrets);
  const parts = turnParts(text);
  // The hash is of the redacted text, so the key gives nothing away about a secret either.
  const hash = createHash('sha256').update(`${turn.role}\n${text}`).digest('hex').slice(0, 16);
  const base = `turn:${turn.sessionId ?? '-'}:${hash}`;
  const keyOf = (i: number) => (parts.length === 1 ? base : `${base}:${i + 1}`);
  return parts.map((content, i) => ({
    apiKeyId: turn.apiKeyId,
    sessionId: turn.sessionId,
    type: 'episodic',
    key: keyOf(i),
    content,
    createdAt: turn.occurredAt ?? null,
    metadata: {
      source: CAPTURE_SOURCE,
      role: turn.role,
      part: i + 1,
      parts: parts.length,
      previousKey: i > 0 ? keyOf(i - 1) : null,
      nextKey: i < parts.length - 1 ? keyOf(i + 1) : null,
    },
  }));
}

/** The keys a conversation's messages are captured under (or would be, whatever captureTurns says of their role). */
export function turnKeys(turns: readonly TurnToCapture[], knownSecrets: readonly string[]): string[] {
  return turns.flatMap((t) => turnMemories(t, knownSecrets).map((m) => m.key as string));
}

/**
 * Another transaction captured the same message between this one's look-up and its write (PostgreSQL's read
 * committed lets both look first): the facts point at a turn that is not stored. Run the transaction again, and it
 * finds the turn.
 */
export class TurnCapturedMeanwhile extends Error {
  constructor() {
    super('the turn was captured by another request meanwhile');
  }
}

/**
 * Captures one message and stores the facts said in it, linked both ways (in the caller's transaction; see
 * storeFactsOfTurn). A message seen for the first time is written once, after its facts and listing them: a turn
 * written and then updated with its list cost PostgreSQL a second write, a version of the turn in its history, and
 * three more round trips, on every message. One captured before keeps its memories, and lists the facts it lacks.
 * Returns the turn's parts, in order, and the facts.
 */
export async function captureTurnWithFacts(
  deps: FactDeps,
  turn: TurnToCapture,
  knownSecrets: readonly string[],
  facts: { facts: readonly ExtractedFact[]; origin: Omit<FactOrigin, 'sourceTurn'>; settings: Settings },
): Promise<{ captured: Memory[]; memories: Memory[] }> {
  const rows = memoryRows(turnMemories(turn, knownSecrets), deps.now());
  const first = rows[0];
  const storeFactsOf = (captured: Memory | null) =>
    storeFactsOfTurn(deps, turn.apiKeyId, facts.facts, facts.origin, captured, facts.settings);
  if (first === undefined) return { captured: [], memories: (await storeFactsOf(null)).memories };
  if (facts.facts.length === 0 || !(await absentKeys(deps.db, turn.apiKeyId, [first.key])).has(first.key)) {
    const { memories: captured } = await storeRowsOnce(deps.db, rows);
    const linked = await storeFactsOf(captured[0] ?? null);
    if (linked.turn) captured[0] = linked.turn;
    return { captured, memories: linked.memories };
  }
  const memories = await storeFacts(deps, turn.apiKeyId, facts.facts, { ...facts.origin, sourceTurn: first.id }, facts.settings);
  const listed = { ...first, metadata: JSON.stringify({ ...JSON.parse(first.metadata), facts: memories.map((m) => m.id) }) };
  const { memories: captured, stored } = await storeRowsOnce(deps.db, [listed, ...rows.slice(1)]);
  if (stored[0]?.id !== first.id) throw new TurnCapturedMeanwhile();
  return { captured, memories };
}

/**
 * Captures the messages of a conversation that are not stored yet, in one transaction; a conversation sent again
 * costs one read and writes nothing. Returns the memories stored now.
 */
export async function captureConversation(
  deps: MemoryDeps,
  turns: readonly TurnToCapture[],
  knownSecrets: readonly string[],
): Promise<Memory[]> {
  const inputs = turns.flatMap((t) => turnMemories(t, knownSecrets));
  if (inputs.length === 0) return [];
  const absent = await absentKeys(
    deps.db,
    inputs[0]!.apiKeyId,
    inputs.map((m) => m.key as string),
  );
  const missing = inputs.filter((m) => absent.has(m.key as string));
  if (missing.length === 0) return [];
  return deps.db.transaction().execute(async (trx) => (await storeOnce({ ...deps, db: trx }, missing)).stored);
}
