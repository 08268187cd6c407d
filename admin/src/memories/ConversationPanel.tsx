import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { useSessionConversationQuery } from '../generated/graphql';
import { messagesOf } from './conversation';
import { formatDateTime, formatNumber, plural } from './format';
import type { TurnsOf } from './Origin';

interface Props {
  id: string;
  of: TurnsOf;
  onClose: () => void;
  /** Lists the same turns in the memory table instead, to edit or delete them. */
  onShowAsTable: () => void;
}

const PAGE = 200;

/** One session's captured turns, read as the conversation they were: who said what, when, and the facts taken from it. */
export function ConversationPanel({ id, of, onClose, onShowAsTable }: Props) {
  const [offset, setOffset] = useState(0);
  const { data, error, isPending } = useSessionConversationQuery({ ...of, offset }, { placeholderData: keepPreviousData });
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  const page = data?.memories;
  const messages = messagesOf(page?.items ?? []);

  return (
    <section id={id} className="card mem-panel" aria-label={`Conversation of session ${of.sessionId}`}>
      <div className="mem-panel-head">
        <h2>
          Conversation <span className="muted">· session {of.sessionId}</span>
        </h2>
        <div className="row">
          <button type="button" className="ghost small" onClick={onShowAsTable}>
            Show as table
          </button>
          <button type="button" ref={closeRef} className="ghost small" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <p className="muted">
        The messages of key {of.apiKeyId} that captureTurns kept in this session, in the order they were said (secrets redacted).
      </p>
      {isPending && <p className="muted">Loading the conversation…</p>}
      {error != null && <ErrorNote error={error} prefix="The conversation could not be loaded" />}
      {page && page.totalCount === 0 && <p className="muted">No captured turns in this session.</p>}
      {messages.length > 0 && (
        <ol className="mem-conversation">
          {messages.map((m) => (
            <li key={m.id} className={`mem-message ${m.role === 'assistant' ? 'from-assistant' : 'from-user'}`}>
              <div className="mem-message-head muted">
                <strong>{m.role}</strong> ·{' '}
                <time dateTime={m.createdAt} title={m.createdAt}>
                  {formatDateTime(m.createdAt)}
                </time>
                {m.facts > 0 && <> · {plural(m.facts, 'fact')} taken from it</>}
                {m.hidden && <> · no longer injected</>}
              </div>
              <p className="mem-message-text">{m.text}</p>
            </li>
          ))}
        </ol>
      )}
      {page && page.totalCount > PAGE && (
        <div className="row">
          <button type="button" className="small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Earlier
          </button>
          <span className="muted">
            {formatNumber(page.offset + 1)}–{formatNumber(page.offset + page.items.length)} of {formatNumber(page.totalCount)} parts
          </span>
          <button type="button" className="small" disabled={!page.hasMore} onClick={() => setOffset(offset + PAGE)}>
            Later
          </button>
        </div>
      )}
    </section>
  );
}
