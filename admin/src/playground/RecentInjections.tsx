import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { formatInt, formatScore, formatTime } from '../components/format';
import { ScrollRegion } from '../components/ScrollRegion';
import { type LeftOutReason, type RecentInjectionsQuery, useMemorySettingsQuery, useRecentInjectionsQuery } from '../generated/graphql';
import { TIER_LABEL } from './labels';

type Injection = RecentInjectionsQuery['injections']['items'][number];
type Receipt = Injection['receipt'];

const REASON_LABEL: Record<LeftOutReason, string> = {
  OVER_BUDGET: 'over budget',
  NEAR_DUPLICATE: 'near-duplicate',
  OVER_LIMIT: 'over the limit',
  BELOW_FLOOR: 'below the relevance floor',
  IN_ITS_TURN: 'said in a turn in the block',
};

const SKIP_LABEL: Record<NonNullable<Receipt['skipped']>, string> = {
  DISABLED: 'memory was off',
  OPTED_OUT: 'the request opted out',
  ZERO_BUDGET: 'the budget was 0',
};

/**
 * The injection log of one key: what each of its recent requests got and why, each receipt expandable. The log is
 * kept only while the injectionLogDays setting is above 0; until then this says how to turn it on.
 */
export function RecentInjections({ apiKeyId }: { apiKeyId: string }) {
  const settings = useMemorySettingsQuery();
  const days = settings.data?.memorySettings.injectionLogDays;
  // The cursors of the pages before this one, so "Newer" goes back without refetching from the start.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const log = useRecentInjectionsQuery(
    { apiKeyId, after },
    { enabled: apiKeyId !== '' && (days ?? 0) > 0, staleTime: 0, placeholderData: keepPreviousData },
  );
  const page = log.data?.injections;
  return (
    <section className="card ri-card" aria-labelledby="ri-title">
      <div className="card-head">
        <h2 id="ri-title">Recent injections</h2>
        <span className="muted">
          {apiKeyId ? (
            <>
              for API key <code>{apiKeyId}</code>
            </>
          ) : (
            'pick an API key above'
          )}
        </span>
      </div>
      {days === 0 ? (
        <div className="empty-inline">
          <p>
            <strong>The injection log is off.</strong>
          </p>
          <p className="muted">
            Set <a href="#settings">Settings → Injection log</a> (<code>injectionLogDays</code>) above 0 and each injection's receipt is
            kept for that many days: the memories it got, those left out and why.
          </p>
        </div>
      ) : log.error ? (
        <ErrorNote error={log.error} prefix="The injection log could not be read" />
      ) : !page ? (
        <p className="muted">{apiKeyId ? 'Loading…' : 'No API key yet.'}</p>
      ) : page.items.length === 0 ? (
        <p className="muted">No injection kept yet for this key: the log keeps what the gateway injects from now on.</p>
      ) : (
        <>
          <ol className="ri-list">
            {page.items.map((injection) => (
              <li key={injection.id}>
                <InjectionEntry injection={injection} />
              </li>
            ))}
          </ol>
          <div className="ri-pager">
            <button type="button" className="small" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </button>
            <button type="button" className="small" disabled={!page.hasMore} onClick={() => setCursors((c) => [...c, page.endCursor])}>
              Older
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function InjectionEntry({ injection }: { injection: Injection }) {
  const r = injection.receipt;
  return (
    <details className="ri-entry">
      <summary>
        <span className="ri-query">{injection.query?.trim() || <span className="muted">(no query)</span>}</span>
        <span className="ri-facts muted">
          <time dateTime={injection.at}>{formatTime(injection.at)}</time>
          {injection.sessionId && <span>session {injection.sessionId}</span>}
          {r.skipped ? (
            <span>nothing retrieved: {SKIP_LABEL[r.skipped]}</span>
          ) : (
            <span>
              {r.injected.length} injected · {r.leftOut.length} left out · {formatInt(r.tokensUsed)}/{formatInt(r.maxTokens ?? 0)} tokens
            </span>
          )}
        </span>
      </summary>
      <ReceiptTable receipt={r} />
      {r.resolution?.fallbackReason && (
        <p className="muted ri-note">
          <strong>Fallback:</strong> {r.resolution.fallbackReason}
        </p>
      )}
    </details>
  );
}

function ReceiptTable({ receipt }: { receipt: Receipt }) {
  const rows = [
    ...receipt.injected.map((c) => ({
      ...c,
      injected: true,
      outcome: `injected · ${formatInt(c.tokens)} tokens${c.truncated ? ', truncated' : ''}`,
    })),
    ...receipt.leftOut.map((c) => ({ ...c, injected: false, outcome: `left out: ${REASON_LABEL[c.reason]}` })),
  ].sort((a, b) => a.rank - b.rank);
  if (rows.length === 0) return <p className="muted ri-note">No memory was considered.</p>;
  return (
    <ScrollRegion label="Receipt">
      <table className="pg-table ri-table">
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Memory and outcome</th>
            <th scope="col" className="num">
              Score
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.memoryId} className={c.injected ? undefined : 'ri-left-out'}>
              <td className="num rank">{c.rank}</td>
              <td className="pg-memory">
                <div className="pg-content">{c.memory ? c.memory.content : <span className="muted">deleted since</span>}</div>
                <div className="pg-meta">
                  <span className={c.injected ? 'badge ok' : 'badge warn'}>{c.outcome}</span>
                  <span className={`badge tier tier-${c.tier.toLowerCase()}`}>{TIER_LABEL[c.tier]}</span>
                  <code title="Memory key">{c.memory ? c.memory.key : c.memoryId}</code>
                </div>
              </td>
              <td className="num mono">{formatScore(c.score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
