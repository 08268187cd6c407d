import { Fragment, type ReactNode, useEffect, useRef, useState } from 'react';
import { ScrollRegion } from '../components/ScrollRegion';
import type { MemoryOrderField, MemoryRowFieldsFragment } from '../generated/graphql';
import { EditMemoryRow } from './EditMemoryRow';
import { HistoryRow } from './HistoryRow';
import { MemoryRow } from './MemoryRow';
import type { TurnsOf } from './Origin';
import { SortHeader } from './SortHeader';
import type { MemorySort } from './types';

const COLUMNS = 10;

interface Props {
  items: readonly MemoryRowFieldsFragment[];
  sort: MemorySort;
  onSort: (field: MemoryOrderField) => void;
  onDelete: (memory: MemoryRowFieldsFragment, trigger: HTMLButtonElement) => void;
  onOpenConversation: (turns: TurnsOf, trigger: HTMLButtonElement) => void;
  onUndo: (memory: MemoryRowFieldsFragment) => void;
  /** Shown as the body when there are no rows: loading, empty or failed. */
  placeholder?: ReactNode;
  busy: boolean;
}

/** The page of memories with sortable headers; one row at a time can be edited in place, and one show its history. */
export function MemoryTable({ items, sort, onSort, onDelete, onOpenConversation, onUndo, placeholder, busy }: Props) {
  const [editingId, setEditingId] = useState<string | null>(null);
  const [historyId, setHistoryId] = useState<string | null>(null);
  const [returnFocusTo, setReturnFocusTo] = useState<string | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);

  // Leaving edit mode puts the focus back on the row's Edit button, so the keyboard user is where they were.
  useEffect(() => {
    if (!returnFocusTo || editingId) return;
    tableRef.current
      ?.querySelector<HTMLButtonElement>(`tr[data-memory-id="${CSS.escape(returnFocusTo)}"] .mem-row-actions button`)
      ?.focus();
    setReturnFocusTo(null);
  }, [returnFocusTo, editingId]);

  const header = { sort, onSort };
  return (
    <ScrollRegion className="mem-table-wrap" label="Memories table">
      <table ref={tableRef} className="mem-table" aria-busy={busy || undefined} aria-label="Memories">
        <thead>
          <tr>
            <SortHeader field="KEY" label="Key" {...header} />
            <th scope="col">Content</th>
            <th scope="col">Type</th>
            <th scope="col">Session</th>
            <th scope="col">API key</th>
            <SortHeader field="TOKENS" label="Tokens" numeric {...header} />
            <SortHeader field="CREATED_AT" label="Created" {...header} />
            <th scope="col">Status</th>
            <SortHeader field="ACCESS_COUNT" label="Accesses" numeric {...header} />
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.length === 0 && placeholder ? (
            <tr className="mem-placeholder">
              <td colSpan={COLUMNS}>{placeholder}</td>
            </tr>
          ) : (
            items.map((m) =>
              m.id === editingId ? (
                <EditMemoryRow
                  key={m.id}
                  memory={m}
                  columns={COLUMNS}
                  onDone={() => {
                    setEditingId(null);
                    setReturnFocusTo(m.id);
                  }}
                />
              ) : (
                <Fragment key={m.id}>
                  <MemoryRow
                    memory={m}
                    onEdit={() => setEditingId(m.id)}
                    onHistory={() => setHistoryId(historyId === m.id ? null : m.id)}
                    historyOpen={historyId === m.id}
                    onDelete={(trigger) => onDelete(m, trigger)}
                    onUndo={() => onUndo(m)}
                    onOpenConversation={onOpenConversation}
                  />
                  {historyId === m.id && <HistoryRow memory={m} columns={COLUMNS} onClose={() => setHistoryId(null)} />}
                </Fragment>
              ),
            )
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
