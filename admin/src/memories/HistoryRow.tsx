import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import {
  type MemoryHistoryQuery,
  type MemoryRowFieldsFragment,
  useMemoryHistoryQuery,
  useRevertMemoryMutation,
} from '../generated/graphql';
import { formatDateTime } from './format';
import { useInvalidateMemories } from './useInvalidateMemories';

type Version = MemoryHistoryQuery['memoryHistory'][number];
type Shown = Pick<Version, 'content' | 'type' | 'metadata' | 'expiresAt'>;

interface Props {
  memory: MemoryRowFieldsFragment;
  columns: number;
  onClose: () => void;
}

/** A field that differs between a version and the one after it, as the two texts to show side by side. */
interface Change {
  field: string;
  before: string;
  after: string;
}

const expiry = (iso: string | null) => (iso ? formatDateTime(iso) : 'never');
const metadataText = (m: Record<string, unknown>) => JSON.stringify(m, Object.keys(m).sort());

/** What changed from `before` to `after`, field by field; metadata key by key. */
function changes(before: Shown, after: Shown): Change[] {
  const out: Change[] = [];
  if (before.content !== after.content) out.push({ field: 'Content', before: before.content, after: after.content });
  if (before.type !== after.type) out.push({ field: 'Type', before: before.type.toLowerCase(), after: after.type.toLowerCase() });
  if (metadataText(before.metadata) !== metadataText(after.metadata)) {
    for (const key of [...new Set([...Object.keys(before.metadata), ...Object.keys(after.metadata)])].sort()) {
      const [b, a] = [before.metadata[key], after.metadata[key]].map((v) => (v === undefined ? '—' : JSON.stringify(v)));
      if (b !== a) out.push({ field: `metadata.${key}`, before: b!, after: a! });
    }
  }
  if (before.expiresAt !== after.expiresAt) out.push({ field: 'Expiry', before: expiry(before.expiresAt), after: expiry(after.expiresAt) });
  return out;
}

const author = (by: string) =>
  ({ admin: 'the admin token', extraction: 'extraction', import: 'an import', system: 'mnemo' })[by] ?? `token ${by}`;

/** A memory's earlier versions, newest first: what each change did, who made it and why, and a way back to each. */
export function HistoryRow({ memory, columns, onClose }: Props) {
  const history = useMemoryHistoryQuery({ id: memory.id });
  const queryClient = useQueryClient();
  const invalidate = useInvalidateMemories();
  const revert = useRevertMemoryMutation({
    onSuccess: async () => {
      await Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: useMemoryHistoryQuery.getKey({ id: memory.id }) })]);
    },
  });
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const versions = history.data?.memoryHistory ?? [];

  return (
    <tr className="mem-editing mem-history-row">
      <td colSpan={columns}>
        <section className="mem-history" aria-label={`History of ${memory.key}`}>
          <div className="mem-history-head">
            <h3 ref={headingRef} tabIndex={-1}>
              History of <code>{memory.key}</code>
            </h3>
            <button type="button" className="small" onClick={onClose}>
              Close
            </button>
          </div>
          <ErrorNote error={history.error} />
          <ErrorNote error={revert.error} prefix="Not restored" />
          {history.isPending && <p className="muted">Loading…</p>}
          {history.isSuccess && versions.length === 0 && (
            <p className="muted">No earlier version: this memory has not changed since it was written (or history is off).</p>
          )}
          <ol className="mem-history-list">
            {versions.map((v, i) => {
              const next: Shown = i === 0 ? memory : versions[i - 1]!;
              const diff = changes(v, next);
              return (
                <li key={v.version} className="mem-version">
                  <div className="mem-version-head">
                    <strong>Version {v.version}</strong>
                    <span className="muted">
                      changed {formatDateTime(v.changedAt)} by {author(v.changedBy)}: {v.reason}
                    </span>
                    <button
                      type="button"
                      className="small"
                      disabled={revert.isPending || diff.length === 0}
                      onClick={() => revert.mutate({ id: memory.id, version: v.version })}
                      aria-label={`Restore version ${v.version} of ${memory.key}`}
                    >
                      Restore this version
                    </button>
                  </div>
                  {diff.length === 0 ? (
                    <p className="muted mem-version-same">Same as the version after it.</p>
                  ) : (
                    <dl className="mem-diff">
                      {diff.map((c) => (
                        <div key={c.field} className="mem-diff-field">
                          <dt>{c.field}</dt>
                          <dd>
                            <del>{c.before}</del>
                            <ins>{c.after}</ins>
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </li>
              );
            })}
          </ol>
        </section>
      </td>
    </tr>
  );
}
