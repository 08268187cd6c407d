import { useEffect, useRef } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import {
  type MemoryHistoryQuery,
  type MemoryRowFieldsFragment,
  useMemoryHistoryQuery,
  useRevertMemoryMutation,
  useSupersedingMemoryQuery,
} from '../generated/graphql';
import { formatDateTime } from './format';
import { useInvalidateMemories } from './useInvalidateMemories';

type Version = MemoryHistoryQuery['memoryHistory'][number];
type Shown = Pick<Version, 'content' | 'type' | 'metadata' | 'expiresAt' | 'validFrom' | 'validTo' | 'supersededBy'>;

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

/**
 * What changed in when the memory held, as fields; nothing for a version kept before its history recorded validity
 * (validFrom null), whose validity is unknown.
 */
function validityChanges(before: Shown, after: Shown): Change[] {
  if (before.validFrom === null || after.validFrom === null) return [];
  const out: Change[] = [];
  if (before.validFrom !== after.validFrom) {
    out.push({ field: 'Holds from', before: formatDateTime(before.validFrom), after: formatDateTime(after.validFrom) });
  }
  if (before.validTo !== after.validTo) out.push({ field: 'Holds until', before: until(before.validTo), after: until(after.validTo) });
  return out;
}

const until = (iso: string | null) => (iso ? formatDateTime(iso) : 'now (current)');

/** What a change did to whether the memory holds: superseded (by which memory), made current again, or ended. */
type Turn = { kind: 'superseded'; by: string } | { kind: 'restored' } | { kind: 'ended' } | null;

function turnOf(before: Shown, after: Shown): Turn {
  if (before.validFrom === null) return null;
  if (after.supersededBy && after.supersededBy !== before.supersededBy) return { kind: 'superseded', by: after.supersededBy };
  if (before.validTo && !after.validTo) return { kind: 'restored' };
  if (!before.validTo && after.validTo) return { kind: 'ended' };
  return null;
}

/** The memory that superseded a version, by its text; its id once it is deleted. */
function SupersedingMemory({ id }: { id: string }) {
  const superseding = useSupersedingMemoryQuery({ id });
  const m = superseding.data?.memory;
  if (m) return <q className="mem-superseded-by">{m.content}</q>;
  return superseding.isPending ? <span className="muted">…</span> : <code>{id}</code>;
}

/** The turn, in words; why it happened (the rule, "restored") is the entry's reason, in its head. */
function TurnNote({ turn }: { turn: Exclude<Turn, null> }) {
  if (turn.kind === 'restored') return <p className="mem-version-turn">Restored as current</p>;
  if (turn.kind === 'ended') return <p className="mem-version-turn">No longer true</p>;
  return (
    <p className="mem-version-turn">
      Superseded by <SupersedingMemory id={turn.by} />
    </p>
  );
}

const author = (by: string) =>
  ({ admin: 'the admin token', extraction: 'extraction', import: 'an import', system: 'mnemo' })[by] ?? `token ${by}`;

/**
 * A memory's earlier versions, newest first: what each change did (to its wording, or to whether it holds: superseded,
 * restored), who made it and why, and a way back to each wording.
 */
export function HistoryRow({ memory, columns, onClose }: Props) {
  const history = useMemoryHistoryQuery({ id: memory.id });
  const invalidate = useInvalidateMemories();
  const revert = useRevertMemoryMutation({ onSuccess: invalidate });
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
              const wording = changes(v, next);
              const diff = [...wording, ...validityChanges(v, next)];
              const turn = turnOf(v, next);
              return (
                <li key={v.version} className="mem-version">
                  <div className="mem-version-head">
                    <strong>Version {v.version}</strong>
                    <span className="muted">
                      changed {formatDateTime(v.changedAt)} by {author(v.changedBy)}: {v.reason}
                    </span>
                    {/* Restoring a version brings back its wording, never its validity: an entry that changed only
                        whether the memory holds has nothing to restore (Undo on the memory's row restores it). */}
                    {(wording.length > 0 || turn === null) && (
                      <button
                        type="button"
                        className="small"
                        disabled={revert.isPending || wording.length === 0}
                        onClick={() => revert.mutate({ id: memory.id, version: v.version })}
                        aria-label={`Restore version ${v.version} of ${memory.key}`}
                      >
                        Restore this version
                      </button>
                    )}
                  </div>
                  {turn && <TurnNote turn={turn} />}
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
