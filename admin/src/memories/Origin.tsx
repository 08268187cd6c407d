import type { MemoryRowFieldsFragment } from '../generated/graphql';
import { formatDate, formatDateTime } from './format';

/** The captured turns to list: one key's turns of one session. */
export interface TurnsOf {
  apiKeyId: string;
  sessionId: string;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * Where a memory came from, under its content: a captured chat turn says so (with its role and part), and a fact
 * said in a captured turn names the session, with a way to list that session's turns.
 */
export function Origin({ memory: m, onShowTurns }: { memory: MemoryRowFieldsFragment; onShowTurns: (turns: TurnsOf) => void }) {
  const meta = m.metadata as Record<string, unknown>;
  if (meta.source === 'capture') {
    const parts = typeof meta.parts === 'number' && meta.parts > 1 ? ` · part ${meta.part} of ${meta.parts}` : '';
    return (
      <div className="mem-origin">
        <span className="badge grey" title="A chat message kept verbatim (secrets redacted) by the captureTurns setting">
          turn · {text(meta.role) ?? 'unknown role'}
          {parts}
        </span>
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
      {sessionId && (
        <>
          {' '}
          <button
            type="button"
            className="linkish"
            aria-label={`Show the captured turns of session ${sessionId}`}
            onClick={() => onShowTurns({ apiKeyId: m.apiKeyId, sessionId })}
          >
            Show its turns
          </button>
        </>
      )}
    </div>
  );
}
