import type { ReactNode } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { formatInt, formatPercent, formatShortTime } from '../components/format';
import { Reason } from '../components/Reason';
import { StatusChip, type Tone } from '../components/StatusChip';
import { type EngineStatusQuery, useEngineStatusQuery, useMemorySettingsQuery } from '../generated/graphql';

type Status = EngineStatusQuery['engineStatus'];

/** How often the status is probed again while the Engine tab is open. */
export const ENGINE_REFRESH_MS = 3000;

/** One card per part of the engine, each probed by the server with a real query, refreshed while the tab is open. */
export function StatusPanel() {
  const { data, error, isPending } = useEngineStatusQuery(undefined, { refetchInterval: ENGINE_REFRESH_MS });
  const settings = useMemorySettingsQuery();
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
        <QdrantCard selected={settings.data?.memorySettings.vectorStore === 'QDRANT'} />
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
    <StatusCard title="Keyword" tone={k.available ? 'ok' : 'danger'} state={k.available ? 'Ready' : 'Unavailable'} summary="SQLite FTS5, ranked by BM25.">
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
      summary={e.source ? `${SOURCE_LABEL[e.source] ?? e.source} model${e.state === 'idle' ? ', loaded on first use' : ''}.` : 'No usable source: semantic search falls back to keywords.'}
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
          {v.signatureMatches ? <span className="ok-text">matches the current model</span> : <span className="warn-text">from another model</span>}
        </Row>
      )}
      {v.lastResetAt && <Row label="Last reset">{formatShortTime(v.lastResetAt)}</Row>}
    </StatusCard>
  );
}

function QdrantCard({ selected }: { selected: boolean }) {
  return (
    <StatusCard title="Qdrant" tone="grey" state="Not configured" summary="Qdrant support arrives in a later release. Until then vectors live in sqlite-vec.">
      {selected && (
        <Row label="Setting">
          <span className="warn-text">vectorStore is QDRANT; sqlite-vec answers until Qdrant arrives.</span>
        </Row>
      )}
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
