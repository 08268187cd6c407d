import type { ReactNode } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { formatInt, formatPercent, formatShortTime } from '../components/format';
import { Reason } from '../components/Reason';
import { StatusChip, type Tone } from '../components/StatusChip';
import { type EngineStatusQuery, useEngineStatusQuery } from '../generated/graphql';

type Status = EngineStatusQuery['engineStatus'];

/** How often the status is probed again while the Engine tab is open. */
export const ENGINE_REFRESH_MS = 3000;

/** One card per part of the engine, each probed by the server with a real query, refreshed while the tab is open. */
export function StatusPanel() {
  const { data, error, isPending } = useEngineStatusQuery(undefined, { refetchInterval: ENGINE_REFRESH_MS });
  if (isPending) {
    return (
      <div className="card" aria-busy="true">
        <p className="muted">Probing the engine…</p>
      </div>
    );
  }
  if (!data) return <ErrorNote error={error} prefix="The engine status could not be loaded" />;
  const s = data.engineStatus;
  return (
    <section aria-labelledby="engine-status-title">
      <div className="section-head">
        <h2 id="engine-status-title">Status</h2>
        <span className="muted">
          checked {new Date(s.checkedAt).toLocaleTimeString()} · refreshes every {ENGINE_REFRESH_MS / 1000} s
        </span>
        {error ? <ErrorNote error={error} prefix="Refresh failed; showing the last answer" /> : null}
      </div>
      <div className="status-grid">
        <KeywordCard s={s} />
        <EmbeddingCard s={s} />
        <VectorStoreCard s={s} />
        <QdrantCard q={s.qdrant} />
        <RerankCard s={s} />
      </div>
    </section>
  );
}

function StatusCard(props: { title: string; tone: Tone; state: string; summary: ReactNode; children?: ReactNode; footer?: ReactNode }) {
  return (
    <article className="card status-card" aria-label={`${props.title} status`}>
      <header>
        <h3>{props.title}</h3>
        <StatusChip tone={props.tone}>{props.state}</StatusChip>
      </header>
      <p className="status-summary">{props.summary}</p>
      {props.children && <dl className="kv compact">{props.children}</dl>}
      {props.footer && <div className="status-footer">{props.footer}</div>}
    </article>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function KeywordCard({ s }: { s: Status }) {
  const k = s.keyword;
  return (
    <StatusCard
      title="Keyword"
      tone={k.available ? 'ok' : 'danger'}
      state={k.available ? 'Ready' : 'Unavailable'}
      summary="SQLite FTS5, ranked by BM25."
    >
      <Row label="Documents">{formatInt(k.documents)}</Row>
      <Row label="Probe">{k.latencyMs.toFixed(1)} ms</Row>
      {k.error && <Row label="Error">{k.error}</Row>}
    </StatusCard>
  );
}

const EMBEDDING_STATE: Record<string, { tone: Tone; label: string }> = {
  none: { tone: 'warn', label: 'Keyword only' },
  idle: { tone: 'grey', label: 'Idle' },
  loading: { tone: 'accent', label: 'Loading' },
  ready: { tone: 'ok', label: 'Ready' },
  failed: { tone: 'danger', label: 'Failed' },
};

function EmbeddingCard({ s }: { s: Status }) {
  const e = s.embedding;
  const state = EMBEDDING_STATE[e.source ? e.state : 'none'] ?? { tone: 'grey' as Tone, label: e.state };
  const lookups = e.cache ? e.cache.hits + e.cache.misses : 0;
  return (
    <StatusCard
      title="Embedding"
      tone={state.tone}
      state={state.label}
      summary={
        e.source
          ? `${SOURCE_LABEL[e.source] ?? e.source} model${e.state === 'idle' ? ', loaded on first use' : ''}.`
          : 'No usable source: semantic search falls back to keywords.'
      }
      footer={<Reason text={e.reason} />}
    >
      {e.model && (
        <Row label="Model">
          <code className="wrap">{e.model}</code>
        </Row>
      )}
      {e.source && <Row label="Dimension">{e.dimension ?? <span className="muted">known once loaded</span>}</Row>}
      {e.cache && (
        <Row label="Cache">
          {formatInt(e.cache.hits)} hits · {formatInt(e.cache.misses)} misses
          {lookups > 0 && <span className="muted"> ({formatPercent(e.cache.hits, lookups)} hits)</span>}
          <div className="muted">
            {formatInt(e.cache.size)} of {formatInt(e.cache.max)} entries
          </div>
        </Row>
      )}
      {e.lastError && (
        <Row label="Last error">
          <span className="error-text">
            {e.lastError.kind}: {e.lastError.message}
          </span>
        </Row>
      )}
    </StatusCard>
  );
}

const SOURCE_LABEL: Record<string, string> = { remote: 'Remote', static: 'Static (model2vec)', transformers: 'Transformers.js' };

function VectorStoreCard({ s }: { s: Status }) {
  const v = s.vectorStore;
  const [tone, state]: [Tone, string] = !v.available
    ? ['danger', 'Unavailable']
    : v.signatureMatches === false
      ? ['warn', 'Stale']
      : v.pendingReindex > 0
        ? ['warn', 'Pending']
        : ['ok', 'Ready'];
  return (
    <StatusCard
      title="Vector store"
      tone={tone}
      state={state}
      summary={
        <>
          {v.backend}
          {v.extensionVersion ? ` ${v.extensionVersion}` : ''}, in the database file.
          {v.signatureMatches === false && ' The stored vectors come from another model; a reindex replaces them.'}
        </>
      }
    >
      <Row label="Rows">{formatInt(v.rows)}</Row>
      <Row label="Pending reindex">{formatInt(v.pendingReindex)}</Row>
      <Row label="Dimension">{v.dimension ?? <span className="muted">—</span>}</Row>
      <Row label="Quantization">{v.quantization}</Row>
      <Row label="Signature">
        {v.signature ? (
          <code className="ellipsis" title={v.signature}>
            {v.signature}
          </code>
        ) : (
          <span className="muted">none yet</span>
        )}
      </Row>
      {v.signatureMatches !== null && (
        <Row label="Model match">
          {v.signatureMatches ? (
            <span className="ok-text">matches the current model</span>
          ) : (
            <span className="warn-text">from another model</span>
          )}
        </Row>
      )}
      {v.lastResetAt && <Row label="Last reset">{formatShortTime(v.lastResetAt)}</Row>}
    </StatusCard>
  );
}

type Qdrant = Status['qdrant'];

/** The Qdrant card's state: what answers semantic search now, and what (if anything) stands in the way. */
export function qdrantState(q: Qdrant): { tone: Tone; label: string; summary: string } {
  if (!q.configured) {
    return q.enabled
      ? { tone: 'warn', label: 'No URL', summary: 'vectorStore is QDRANT but no Qdrant URL is set: sqlite-vec answers.' }
      : {
          tone: 'grey',
          label: 'Not configured',
          summary: 'Set a URL in the Qdrant settings below to use it. Until then vectors live in sqlite-vec.',
        };
  }
  if (!q.enabled) return { tone: 'grey', label: 'Off', summary: 'Configured, but not the vector store: sqlite-vec answers.' };
  if (q.compatible === false)
    return { tone: 'danger', label: 'Incompatible', summary: 'The collection does not fit the embedding model: sqlite-vec answers.' };
  if (q.breaker === 'open')
    return { tone: 'danger', label: 'Breaker open', summary: 'Calls are paused after repeated failures: sqlite-vec answers.' };
  if (q.ready === false)
    return { tone: 'danger', label: 'Not ready', summary: 'Qdrant does not answer its readiness probe: sqlite-vec answers.' };
  if (q.breaker === 'half_open')
    return { tone: 'warn', label: 'Recovering', summary: 'The next call tries Qdrant again; sqlite-vec answers until it succeeds.' };
  if (q.pendingSync > 0)
    return { tone: 'warn', label: 'Syncing', summary: 'Changes are on their way; keys with queued changes are answered by sqlite-vec.' };
  return { tone: 'ok', label: 'Ready', summary: 'Semantic search is answered by Qdrant; sqlite-vec keeps a copy to fall back on.' };
}

const BREAKER_LABEL: Record<string, string> = { closed: 'closed', open: 'open (calls paused)', half_open: 'half open (trying again)' };

function QdrantCard({ q }: { q: Qdrant }) {
  const state = qdrantState(q);
  return (
    <StatusCard
      title="Qdrant"
      tone={state.tone}
      state={state.label}
      summary={state.summary}
      footer={
        q.incompatibleReason ? (
          <p className="reason warn-text" role="note">
            {q.incompatibleReason}
          </p>
        ) : undefined
      }
    >
      {q.configured && (
        <>
          <Row label="Collection">
            <code className="ellipsis" title={q.url ?? undefined}>
              {q.collection}
            </code>
          </Row>
          <Row label="Points">{q.points === null ? <span className="muted">—</span> : formatInt(q.points)}</Row>
          <Row label="Pending sync">{q.pendingSync > 0 ? <span className="warn-text">{formatInt(q.pendingSync)}</span> : '0'}</Row>
          <Row label="Breaker">
            {q.breaker === 'closed' ? BREAKER_LABEL.closed : <span className="error-text">{BREAKER_LABEL[q.breaker] ?? q.breaker}</span>}
          </Row>
          <Row label="Probe">{q.latencyMs === null ? <span className="muted">—</span> : `${q.latencyMs.toFixed(1)} ms`}</Row>
          <Row label="Model fit">
            {q.compatible === null ? (
              <span className="muted">checked on first use</span>
            ) : q.compatible ? (
              <span className="ok-text">fits the model</span>
            ) : (
              <span className="error-text">does not fit</span>
            )}
          </Row>
          {q.error && (
            <Row label="Error">
              <span className="error-text wrap-anywhere">{q.error}</span>
            </Row>
          )}
        </>
      )}
      {!q.configured && q.pendingSync > 0 && <Row label="Pending sync">{formatInt(q.pendingSync)}</Row>}
    </StatusCard>
  );
}

function RerankCard({ s }: { s: Status }) {
  const r = s.rerank;
  return (
    <StatusCard title="Rerank" tone={r.enabled ? 'ok' : 'grey'} state={r.enabled ? 'On' : 'Off'} summary={r.reason}>
      <Row label="Model">{r.model ? <code className="wrap">{r.model}</code> : <span className="muted">—</span>}</Row>
    </StatusCard>
  );
}
