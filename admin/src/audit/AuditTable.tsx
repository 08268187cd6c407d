import { Fragment, useEffect, useRef, useState } from 'react';
import { formatTime } from '../components/format';
import { ScrollRegion } from '../components/ScrollRegion';
import { TableHead } from '../components/TableHead';
import type { AuditLogQuery, SecretChange } from '../generated/graphql';
import { ACTION_LABELS } from './actions';

export type AuditEntry = AuditLogQuery['auditLog']['items'][number];
type Change = AuditEntry['changes'][number];

const SECRET: Record<SecretChange, string> = {
  SET: 'secret set',
  CHANGED: 'secret changed',
  REMOVED: 'secret removed',
};

/** A value the log holds as JSON, as text: strings as they are, the rest as JSON. */
function shown(json: string | null): string {
  if (json === null) return '';
  const value: unknown = JSON.parse(json);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What a null in a target means where it means something (a clear of every type records types null); other nulls say nothing. */
const NULL_MEANS: Record<string, string> = { types: 'all' };

/** An entry's target as name and text, its nulls as what they mean or left out. */
function targetFields(e: AuditEntry): [string, string][] {
  return Object.entries(e.target ?? {}).flatMap(([name, value]): [string, string][] => {
    if (value === null) return Object.hasOwn(NULL_MEANS, name) ? [[name, NULL_MEANS[name]!]] : [];
    return [[name, typeof value === 'string' ? value : JSON.stringify(value)]];
  });
}

/** One line on what an entry did: the fields it changed, or the first figures of its target (ids only when it has nothing else; the detail shows them all). */
function summary(e: AuditEntry): string {
  if (e.changes.length > 0) return e.changes.map((c) => c.field).join(', ');
  const target = targetFields(e);
  const named = target.filter(([name]) => !name.endsWith('Id'));
  return (named.length > 0 ? named : target)
    .slice(0, 3)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
}

/** The entries, newest first; each row opens a detail underneath: the target, the request, and a change field by field. */
export function AuditTable({ items }: { items: readonly AuditEntry[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <ScrollRegion label="Audit log table" className="table-scroll audit-scroll">
      <table className="audit-table" aria-label="Audit log">
        <TableHead columns={['When', 'Action', 'Actor', 'API key', 'What', 'Outcome']} controls="Details" />
        <tbody>
          {items.map((e) => {
            const expanded = open.has(e.id);
            const detailId = `audit-detail-${e.id}`;
            return (
              <Fragment key={e.id}>
                <tr className={expanded ? 'audit-row open' : 'audit-row'}>
                  <td className="nowrap">{formatTime(e.at)}</td>
                  <td className="nowrap">{ACTION_LABELS[e.action]}</td>
                  <td>{e.actorName}</td>
                  <td className="mono">{e.apiKeyId ?? <span className="muted">—</span>}</td>
                  <td className="audit-what">{summary(e)}</td>
                  <td>{e.outcome === 'OK' ? <span className="badge ok">OK</span> : <span className="badge danger">{e.outcome}</span>}</td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-expanded={expanded}
                      aria-controls={detailId}
                      aria-label={`Details of ${ACTION_LABELS[e.action]}, ${formatTime(e.at)}`}
                      onClick={() => toggle(e.id)}
                    >
                      {expanded ? 'Hide' : 'Details'}
                    </button>
                  </td>
                </tr>
                {expanded && (
                  <tr id={detailId} className="audit-detail-row">
                    <td colSpan={7}>
                      <AuditDetail entry={e} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Shown once the row's Details is pressed: it brings itself into view, as it opens below a row that may be the last on screen. */
function AuditDetail({ entry: e }: { entry: AuditEntry }) {
  const shownAt = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block body: Chromium's scrollIntoView returns a promise, which React would take for a cleanup function.
    shownAt.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div className="audit-detail" ref={shownAt}>
      {e.changes.length > 0 && <ChangeTable changes={e.changes} />}
      <dl className="kv compact">
        {targetFields(e).map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd className="mono">{value}</dd>
          </Fragment>
        ))}
        <dt>Actor id</dt>
        <dd className="mono">{e.actorId}</dd>
        <dt>Request id</dt>
        <dd className="mono">{e.requestId ?? '—'}</dd>
        <dt>Entry</dt>
        <dd className="mono">{e.id}</dd>
      </dl>
    </div>
  );
}

/** Before and after, field by field; a secret only as set, changed or removed, as the log keeps it. */
function ChangeTable({ changes }: { changes: readonly Change[] }) {
  return (
    <table className="audit-changes">
      <caption>Changes</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field}>
            <th scope="row" className="mono">
              {c.field}
            </th>
            {c.secret ? (
              <td colSpan={2}>
                <span className="badge grey">{SECRET[c.secret]}</span> <span className="muted">its value is never recorded</span>
              </td>
            ) : (
              <>
                <td className="mono audit-before">{shown(c.before)}</td>
                <td className="mono audit-after">{shown(c.after)}</td>
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
