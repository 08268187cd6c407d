import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { formatInt, formatPercent, formatShortTime } from '../components/format';
import { Reason } from '../components/Reason';
import { StatusChip, type Tone } from '../components/StatusChip';
import { STORE_NAME } from '../components/storeName';
import {
  type EngineStatusQuery,
  type ModelKind,
  type ModelTestFieldsFragment,
  type RecentCallsFieldsFragment,
  type StoreKind,
  useEngineStatusQuery,
  useQdrantHealthQuery,
  useTestEngineModelMutation,
} from '../generated/graphql';

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
        <StoreCard s={s} />
        <KeywordCard s={s} />
        <EmbeddingCard s={s} />
        <VectorStoreCard s={s} />
        <QdrantCard q={s.qdrant} standby={standbyOf(s.vectorStore.backend)} />
        <RerankCard s={s} />
      </div>
    </section>
  );
}

function StatusCard(props: {
  title: string;
  tone: Tone;
  state: string;
  summary: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** How the calls to the part went lately: its last failure is shown in full, below the figures. */
  calls?: Calls | null;
  /** A "Test" of the part: one real call, its answer shown in the card. */
  test?: ReactNode;
}) {
  const failure = props.calls?.lastError ? props.calls : null;
  return (
    <article className="card status-card" aria-label={`${props.title} status`}>
      <header>
        <h3>{props.title}</h3>
        <StatusChip tone={props.tone}>{props.state}</StatusChip>
      </header>
      <p className="status-summary">{props.summary}</p>
      {props.children && <dl className="kv compact">{props.children}</dl>}
      {failure && (
        <p className="status-failure">
          <span className="status-failure-when">Last failure, {formatShortTime(failure.lastErrorAt)}:</span> {failure.lastError}
        </p>
      )}
      {props.test}
      {props.footer && <div className="status-footer">{props.footer}</div>}
    </article>
  );
}

type Calls = RecentCallsFieldsFragment;

/**
 * What recent calls say about a part, whatever its state claims: red while the last call failed, amber while
 * failures are recent; null when there is nothing to add.
 */
export function callsVerdict(calls: Calls | null): { tone: Tone; label: string } | null {
  if (!calls || calls.failures === 0) return null;
  const lastFailed = calls.lastErrorAt !== null && (calls.lastSuccessAt === null || calls.lastErrorAt >= calls.lastSuccessAt);
  return lastFailed ? { tone: 'danger', label: 'Failing' } : { tone: 'warn', label: 'Recent failures' };
}

/** The card's chip: the state, unless recent calls tell worse. */
function verdict(state: { tone: Tone; label: string }, calls: Calls | null) {
  return callsVerdict(calls) ?? state;
}

/** How many calls the part got lately, and how many failed, as a row of a card. */
function CallRows({ calls }: { calls: Calls | null }) {
  if (!calls) return null;
  return (
    <Row label="Recent calls">
      {formatInt(calls.calls)} in {Math.round(calls.windowSeconds / 60)} min
      {calls.failures > 0 ? (
        <span className="error-text">, {formatInt(calls.failures)} failed</span>
      ) : calls.calls > 0 ? (
        <span className="muted">, none failed</span>
      ) : null}
    </Row>
  );
}

/** One real call to the model in use, and what it answered; the status is probed again afterwards. */
function ModelTest({ kind, label }: { kind: ModelKind; label: string }) {
  const queryClient = useQueryClient();
  const test = useTestEngineModelMutation({
    onSettled: () => void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() }),
  });
  return (
    <TestOutcome
      label={label}
      onTest={() => test.mutate({ kind })}
      pending={test.isPending}
      error={test.error}
      result={test.data && modelTestResult(test.data.testEngineModel)}
    />
  );
}

/** A model test's answer in words. */
export function modelTestResult(r: ModelTestFieldsFragment): { ok: boolean; text: string } {
  return r.ok
    ? { ok: true, text: `${r.model ?? 'The model'} answered in ${r.latencyMs.toFixed(0)} ms: ${r.answer}.` }
    : { ok: false, text: `${r.model ? `${r.model} failed` : 'Failed'}: ${r.error}` };
}

/** The Test button of a card and the answer of the last test. */
export function TestOutcome(props: {
  label: string;
  onTest: () => void;
  pending: boolean;
  error: unknown;
  result: { ok: boolean; text: string } | undefined;
}) {
  const r = props.result;
  return (
    <div className="status-test">
      <button type="button" className="small" onClick={props.onTest} disabled={props.pending} aria-label={props.label}>
        {props.pending ? 'Testing…' : 'Test'}
      </button>
      <ErrorNote error={props.error} prefix="Test failed" />
      {r && !props.pending && (
        <p role="status" className={r.ok ? 'ok-text test-result' : 'error-text test-result'}>
          {r.text}
        </p>
      )}
    </div>
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

/** Where the memories are kept: one SQLite file, or a PostgreSQL server that replicas share. */
function StoreCard({ s }: { s: Status }) {
  const d = s.store;
  const postgres = d.kind === 'POSTGRES';
  const engine = `${STORE_NAME[d.kind]}${d.version ? ` ${d.version}` : ''}`;
  return (
    <StatusCard
      title="Database"
      tone={d.available ? 'ok' : 'danger'}
      state={d.available ? 'Ready' : 'Unavailable'}
      summary={postgres ? `${engine}, shared by every mnemo replica.` : `${engine}, one file in the data folder: one mnemo process.`}
    >
      {postgres ? (
        <>
          <Row label="Server">
            {d.host ? (
              <code className="wrap">
                {d.host}:{d.port}
              </code>
            ) : (
              <span className="muted">local socket</span>
            )}
          </Row>
          <Row label="Database">{d.database ? <code className="wrap">{d.database}</code> : <span className="muted">—</span>}</Row>
        </>
      ) : (
        <Row label="File">{d.file ? <code className="wrap">{d.file}</code> : <span className="muted">in memory</span>}</Row>
      )}
      <Row label="Probe">{d.latencyMs.toFixed(1)} ms</Row>
      {d.error && (
        <Row label="Error">
          <span className="error-text wrap-anywhere">{d.error}</span>
        </Row>
      )}
    </StatusCard>
  );
}

/** The keyword index each store keeps (server/db/sqlite and server/db/postgres keywordSearch.ts), one ranking for both. */
const KEYWORD_INDEX: Record<StoreKind, string> = {
  SQLITE: 'SQLite FTS5, ranked by BM25.',
  POSTGRES: "PostgreSQL postings (each memory's words in a B-tree), ranked by BM25.",
};

function KeywordCard({ s }: { s: Status }) {
  const k = s.keyword;
  return (
    <StatusCard
      title="Keyword"
      tone={k.available ? 'ok' : 'danger'}
      state={k.available ? 'Ready' : 'Unavailable'}
      summary={KEYWORD_INDEX[s.store.kind]}
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
  const state = verdict(EMBEDDING_STATE[e.source ? e.state : 'none'] ?? { tone: 'grey' as Tone, label: e.state }, e.calls);
  const lookups = e.cache ? e.cache.hits + e.cache.misses : 0;
  return (
    <StatusCard
      title="Embedding"
      tone={state.tone}
      state={state.label}
      calls={e.calls}
      test={e.source ? <ModelTest kind="EMBEDDING" label="Test the embedding model" /> : undefined}
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
      <CallRows calls={e.calls} />
      {e.lastError && !e.calls?.lastError && (
        <Row label="Last error">
          <span className="error-text wrap-anywhere">
            {e.lastError.kind}: {e.lastError.message}
          </span>
        </Row>
      )}
    </StatusCard>
  );
}

const SOURCE_LABEL: Record<string, string> = { remote: 'Remote', static: 'Static (model2vec)', transformers: 'Transformers.js' };

/**
 * Where the vectors are, by the backend the server reports: sqlite-vec in the database file, or Qdrant's collection
 * for a store that keeps no vectors itself (PostgreSQL), which has none until Qdrant is its vector store.
 */
function vectorHome(s: Status): string {
  const v = s.vectorStore;
  if (v.backend !== 'qdrant') return `${v.backend}${v.extensionVersion ? ` ${v.extensionVersion}` : ''}, in the database file.`;
  const store = STORE_NAME[s.store.kind];
  return v.available
    ? `Qdrant's collection: the ${store} store keeps no vectors itself.`
    : `None until Qdrant is configured as the vector store: the ${store} store keeps no vectors itself, so semantic search answers from keywords.`;
}

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
          {vectorHome(s)}
          {v.signatureMatches === false && ' The stored vectors come from another model; a reindex replaces them.'}
        </>
      }
      footer={
        v.unavailableReason ? (
          <p className="reason error-text" role="note">
            {v.unavailableReason}
          </p>
        ) : undefined
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

/** What stands in for Qdrant where it cannot answer, and what the rest of the card says about it. */
export interface Standby {
  /** Who answers semantic search instead. */
  answers: string;
  /** Where vectors are while no Qdrant is configured. */
  unconfigured: string;
  /** How a key's changes still on their way to Qdrant are searched. */
  syncing: string;
  /** What backs Qdrant up while it answers. */
  ready: string;
}

/** sqlite-vec in the database file holds every vector and answers whenever Qdrant cannot. */
const SQLITE_VEC_COPY: Standby = {
  answers: 'sqlite-vec answers',
  unconfigured: 'Until then vectors live in sqlite-vec.',
  syncing: 'keys with queued changes are answered by sqlite-vec',
  ready: 'sqlite-vec keeps a copy to fall back on',
};

/** The store keeps no vectors (PostgreSQL): Qdrant's collection is the only one, and keywords answer without it. */
const NO_COPY: Standby = {
  answers: 'semantic search answers from keywords',
  unconfigured: 'Until then there are no vectors: semantic search answers from keywords.',
  syncing: "a search first carries its key's queued changes to Qdrant",
  ready: 'its collection is the only copy of the vectors',
};

/** The stand-in by the vector index the server reports: Qdrant itself means there is no copy to fall back on. */
export const standbyOf = (backend: string): Standby => (backend === 'qdrant' ? NO_COPY : SQLITE_VEC_COPY);

/** The Qdrant card's state: what answers semantic search now, and what (if anything) stands in the way. */
export function qdrantState(q: Qdrant, standby: Standby): { tone: Tone; label: string; summary: string } {
  if (!q.configured) {
    return q.enabled
      ? { tone: 'warn', label: 'No URL', summary: `vectorStore is QDRANT but no Qdrant URL is set: ${standby.answers}.` }
      : {
          tone: 'grey',
          label: 'Not configured',
          summary: `Set a URL in the Qdrant settings below to use it. ${standby.unconfigured}`,
        };
  }
  if (!q.enabled) return { tone: 'grey', label: 'Off', summary: `Configured, but not the vector store: ${standby.answers}.` };
  if (q.compatible === false)
    return { tone: 'danger', label: 'Incompatible', summary: `The collection does not fit the embedding model: ${standby.answers}.` };
  if (q.breaker === 'open')
    return { tone: 'danger', label: 'Breaker open', summary: `Calls are paused after repeated failures: ${standby.answers}.` };
  if (q.ready === false)
    return { tone: 'danger', label: 'Not ready', summary: `Qdrant does not answer its readiness probe: ${standby.answers}.` };
  if (q.breaker === 'half_open')
    return { tone: 'warn', label: 'Recovering', summary: `The next call tries Qdrant again; until it succeeds ${standby.answers}.` };
  if (q.pendingSync > 0) return { tone: 'warn', label: 'Syncing', summary: `Changes are on their way; ${standby.syncing}.` };
  return { tone: 'ok', label: 'Ready', summary: `Semantic search is answered by Qdrant; ${standby.ready}.` };
}

const BREAKER_LABEL: Record<string, string> = { closed: 'closed', open: 'open (calls paused)', half_open: 'half open (trying again)' };

function QdrantCard({ q, standby }: { q: Qdrant; standby: Standby }) {
  const state = qdrantState(q, standby);
  const chip = q.enabled ? verdict(state, q.calls) : state;
  return (
    <StatusCard
      title="Qdrant"
      tone={chip.tone}
      state={chip.label}
      summary={state.summary}
      calls={q.calls}
      test={q.configured ? <QdrantTest /> : undefined}
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
          <CallRows calls={q.calls} />
        </>
      )}
      {!q.configured && q.pendingSync > 0 && <Row label="Pending sync">{formatInt(q.pendingSync)}</Row>}
    </StatusCard>
  );
}

function RerankCard({ s }: { s: Status }) {
  const r = s.rerank;
  const state = verdict(r.enabled ? { tone: 'ok', label: 'On' } : { tone: 'grey', label: 'Off' }, r.calls);
  return (
    <StatusCard
      title="Rerank"
      tone={state.tone}
      state={state.label}
      summary={r.reason}
      calls={r.calls}
      test={r.enabled ? <ModelTest kind="RERANK" label="Test the rerank model" /> : undefined}
    >
      <Row label="Model">{r.model ? <code className="wrap">{r.model}</code> : <span className="muted">—</span>}</Row>
      <CallRows calls={r.calls} />
    </StatusCard>
  );
}

/** Qdrant's readiness probe, asked now. */
function QdrantTest() {
  const queryClient = useQueryClient();
  const probe = useMutation({
    mutationFn: () => useQdrantHealthQuery.fetcher()(),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: useEngineStatusQuery.getKey() }),
  });
  const h = probe.data?.qdrantHealth;
  return (
    <TestOutcome
      label="Test Qdrant"
      onTest={() => probe.mutate()}
      pending={probe.isPending}
      error={probe.error}
      result={
        h &&
        (h.ready
          ? { ok: true, text: `Qdrant is ready, answered in ${h.latencyMs.toFixed(0)} ms.` }
          : { ok: false, text: `Not ready: ${h.error}` })
      }
    />
  );
}
