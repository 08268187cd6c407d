import { formatNumber } from './format';
import type { Rejection } from './importFile';

export interface ImportSummary {
  imported: number;
  updated: number;
  /** Sorted by row; indices are positions in the file, from 0. */
  rejected: Rejection[];
  /** Stored, but last written before the retention window. */
  outsideRetention: number;
  /** Stored, but with an expiry already past. */
  expired: number;
  /** When the purge deletes the first of those. */
  nextPurgeAt: string | null;
}

const SHOWN = 100;

/** What an import did: new, updated and rejected rows, with the reason for each rejection. */
export function ImportReport({ report }: { report: ImportSummary }) {
  const { imported, updated, rejected, outsideRetention, expired } = report;
  return (
    <section className="mem-report" aria-label="Import report">
      <dl className="mem-report-counts">
        <div>
          <dt>Imported</dt>
          <dd>{formatNumber(imported)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatNumber(updated)}</dd>
        </div>
        <div className={rejected.length > 0 ? 'bad' : undefined}>
          <dt>Rejected</dt>
          <dd>{formatNumber(rejected.length)}</dd>
        </div>
        {outsideRetention > 0 && (
          <div className="bad">
            <dt>Outside retention</dt>
            <dd>{formatNumber(outsideRetention)}</dd>
          </div>
        )}
        {expired > 0 && (
          <div className="bad">
            <dt>Already expired</dt>
            <dd>{formatNumber(expired)}</dd>
          </div>
        )}
      </dl>
      {rejected.length > 0 && (
        <table className="mem-rejections">
          <caption className="sr-only">Rejected rows</caption>
          <thead>
            <tr>
              <th scope="col" className="mem-num">
                Row
              </th>
              <th scope="col">Key</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {rejected.slice(0, SHOWN).map((r) => (
              <tr key={r.index}>
                <td className="mem-num">{r.index + 1}</td>
                <td>{r.key ? <code>{r.key}</code> : <span className="muted">—</span>}</td>
                <td>{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rejected.length > SHOWN && <p className="muted">…and {formatNumber(rejected.length - SHOWN)} more rejected rows.</p>}
    </section>
  );
}
