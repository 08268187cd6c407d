import type { MemoryRowFieldsFragment } from '../generated/graphql';
import { StatusBadge, TypeBadge } from './Badges';
import { formatDate, formatDateTime, formatNumber, formatTime } from './format';
import { Origin, type TurnsOf } from './Origin';
import { SupersededNote } from './SupersededNote';

interface Props {
  memory: MemoryRowFieldsFragment;
  onEdit: () => void;
  /** Opens or closes its History panel. */
  onHistory: () => void;
  historyOpen: boolean;
  onDelete: (trigger: HTMLButtonElement) => void;
  onOpenConversation: (turns: TurnsOf, trigger: HTMLButtonElement) => void;
  /** Makes a memory that no longer holds current again (restoreMemory). */
  onUndo: () => void;
}

/** One memory, read-only; Edit turns it into EditMemoryRow. */
export function MemoryRow({ memory: m, onEdit, onHistory, historyOpen, onDelete, onOpenConversation, onUndo }: Props) {
  const metadataKeys = Object.keys(m.metadata);
  const expiresLater = m.expiresAt && m.status === 'ACTIVE';
  return (
    <tr data-memory-id={m.id} className={m.validTo ? 'mem-row-superseded' : undefined}>
      <td>
        <code className="mem-key" title={m.key}>
          {m.key}
        </code>
      </td>
      <td className="mem-content-cell">
        <div className="mem-content" title={m.content}>
          {m.content}
        </div>
        <SupersededNote memory={m} />
        <Origin memory={m} onOpenConversation={onOpenConversation} />
        {metadataKeys.length > 0 && (
          <div className="mem-meta muted" title={JSON.stringify(m.metadata, null, 2)}>
            {'{ '}
            {metadataKeys.slice(0, 3).join(', ')}
            {metadataKeys.length > 3 ? ', …' : ''}
            {' }'}
          </div>
        )}
      </td>
      <td>
        <TypeBadge type={m.type} />
      </td>
      <td>
        {m.sessionId ? (
          <span className="mem-id" title={m.sessionId}>
            {m.sessionId}
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        <span className="mem-id" title={m.apiKeyId}>
          {m.apiKeyId}
        </span>
      </td>
      <td className="mem-num">{formatNumber(m.tokens)}</td>
      <td className="mem-nowrap">
        <time dateTime={m.createdAt} title={m.createdAt}>
          {formatDate(m.createdAt)}
          <span className="mem-sub muted">{formatTime(m.createdAt)}</span>
        </time>
      </td>
      <td>
        <StatusBadge status={m.status} />
        {expiresLater && (
          <div className="mem-sub muted mem-nowrap" title={`Expires ${formatDateTime(m.expiresAt!)}`}>
            until {formatDate(m.expiresAt!)}
          </div>
        )}
      </td>
      <td className="mem-num">{formatNumber(m.accessCount)}</td>
      <td className="mem-row-actions">
        {m.validTo && (
          <button
            type="button"
            className="small"
            onClick={onUndo}
            aria-label={`Undo: make ${m.key} current again`}
            title="Make it current again: it is retrieved and injected again"
          >
            Undo
          </button>
        )}
        <button type="button" className="small" onClick={onEdit} aria-label={`Edit ${m.key}`}>
          Edit
        </button>
        <button type="button" className="small" onClick={onHistory} aria-expanded={historyOpen} aria-label={`History of ${m.key}`}>
          History
        </button>
        <button type="button" className="small danger" onClick={(e) => onDelete(e.currentTarget)} aria-label={`Delete ${m.key}`}>
          Delete
        </button>
      </td>
    </tr>
  );
}
