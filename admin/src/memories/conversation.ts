/** A captured message as the conversation view shows it: its parts joined back into one text. */
export interface Message {
  id: string;
  role: string;
  text: string;
  createdAt: string;
  /** Parts that retrieval no longer returns (expired, out of retention, archived by a summary). */
  hidden: boolean;
  facts: number;
}

interface TurnPart {
  id: string;
  key: string;
  content: string;
  createdAt: string;
  status: string;
  metadata: unknown;
}

/** `turn:<session>:<hash>` for every part of one message (each part's key adds `:<n>`). */
const messageKey = (key: string) => key.split(':').slice(0, 3).join(':');

/**
 * Joins the parts of each long message (captured as one memory per part) in part order; messages keep the order of
 * their first part, which is the order they were said.
 */
export function messagesOf(parts: readonly TurnPart[]): Message[] {
  const byMessage = new Map<string, TurnPart[]>();
  for (const p of parts) byMessage.set(messageKey(p.key), [...(byMessage.get(messageKey(p.key)) ?? []), p]);
  return [...byMessage.values()].map((group) => {
    const sorted = [...group].sort((a, b) => partNumber(a) - partNumber(b));
    const first = sorted[0]!;
    const meta = metadataOf(first);
    return {
      id: first.id,
      role: typeof meta.role === 'string' ? meta.role : 'unknown',
      text: sorted.map((p) => p.content).join(' '),
      createdAt: first.createdAt,
      hidden: sorted.some((p) => p.status !== 'ACTIVE'),
      facts: sorted.reduce((n, p) => n + (Array.isArray(metadataOf(p).facts) ? (metadataOf(p).facts as unknown[]).length : 0), 0),
    };
  });
}

const metadataOf = (p: TurnPart) => (p.metadata ?? {}) as Record<string, unknown>;
const partNumber = (p: TurnPart) => (typeof metadataOf(p).part === 'number' ? (metadataOf(p).part as number) : 1);
