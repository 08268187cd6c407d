import type { MemoryRowFieldsFragment } from '../generated/graphql';
import { formatDate, formatDateTime } from './format';

/** The captured turns to list: one key's turns of one session. */
export interface TurnsOf {
  apiKeyId: string;
  sessionId: string;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

interface Props {
  memory: MemoryRowFieldsFragment;
  onOpenConversation: (turns: TurnsOf, trigger: HTMLButtonElement) => void;
}

/**
 * Where a memory came from, under its content: a captured chat turn says so (with its role and part), and a fact
 * said in a captured turn names the session; both open that session's conversation.
 */
export function Origin({ memory: m, onOpenConversation }: Props) {
  const meta = m.metadata as Record<string, unknown>;
  const open = (sessionId: string) => (
    <button
      type="button"
      className="linkish"
      aria-label={`Read the conversation of session ${sessionId}`}
      onClick={(e) => onOpenConversation({ apiKeyId: m.apiKeyId, sessionId }, e.currentTarget)}
    >
      Read the conversation
    </button>
  );
  if (meta.source === 'capture') {
    const parts = typeof meta.parts === 'number' && meta.parts > 1 ? ` · part ${meta.part} of ${meta.parts}` : '';
    return (
      <div className="mem-origin">
        <span className="badge grey" title="A chat message kept verbatim (secrets redacted) by the captureTurns setting">
          turn · {text(meta.role) ?? 'unknown role'}
          {parts}
        </span>
        {m.sessionId && <> {open(m.sessionId)}</>}
      </div>
    );
  }
  if (!text(meta.sourceTurn)) return null;
  const sessionId = text(meta.sessionId);
  const extractedAt = text(meta.extractedAt);
  return (
    <div className="mem-origin muted">
      {sessionId ? <>said in session {sessionId}</> : 'said in a captured turn'}
      {extractedAt && (
        <>
          , extracted{' '}
          <time dateTime={extractedAt} title={formatDateTime(extractedAt)}>
            {formatDate(extractedAt)}
          </time>
        </>
      )}
      {sessionId && <> {open(sessionId)}</>}
    </div>
  );
}
