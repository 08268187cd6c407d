import { keepPreviousData } from '@tanstack/react-query';
import { type KeyboardEvent, useRef, useState } from 'react';
import { Bar } from '../components/Bar';
import { CopyButton } from '../components/CopyButton';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { formatInt, formatPercent, formatScore } from '../components/format';
import { Reason } from '../components/Reason';
import { ScrollRegion } from '../components/ScrollRegion';
import {
  type RetrievalStrategy,
  type RetrievePreviewQuery,
  type RetrievePreviewQueryVariables,
  useMemorySettingsQuery,
  usePlaygroundRecentKeysQuery,
  useRetrievePreviewQuery,
} from '../generated/graphql';
import { GraphQLRequestError } from '../lib/fetcher';
import { numberOf, numberProblem } from '../lib/numbers';
import { useDraftForm } from '../lib/useDraftForm';
import { useMemoryOff } from '../settings/useMemoryOff';
import { type KeepQuestion, KeepQuestionCard, useKeepQuestion } from './KeepQuestion';
import { TIER_LABEL } from './labels';
import { RecentInjections } from './RecentInjections';

type Result = RetrievePreviewQuery['retrievePreview'];

interface Draft {
  query: string;
  apiKeyId: string;
  sessionId: string;
  strategy: RetrievalStrategy;
  maxTokens: string;
}

const STRATEGIES: { value: RetrievalStrategy; label: string; hint: string }[] = [
  { value: 'EXACT', label: 'Exact', hint: 'Newest first, no matching' },
  { value: 'SEMANTIC', label: 'Semantic', hint: 'Nearest vectors to the query' },
  { value: 'HYBRID', label: 'Hybrid', hint: 'Keyword and semantic, scores combined' },
];

const STRATEGY_LABEL: Record<RetrievalStrategy, string> = { EXACT: 'Exact', SEMANTIC: 'Semantic', HYBRID: 'Hybrid' };
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** The disabled query still needs variables of the right shape; it never runs. */
const NOT_YET: RetrievePreviewQueryVariables = { input: {} };

/**
 * A dry run of the gateway's retrieval (retrievePreview): what would be injected for a query, with every
 * score, the tiers that ran, why a tier fell back, and the block exactly as the gateway sends it.
 */
export function PlaygroundTab() {
  const settings = useMemorySettingsQuery();
  const recent = usePlaygroundRecentKeysQuery(undefined, { staleTime: 60_000 });
  const [submitted, setSubmitted] = useState<RetrievePreviewQueryVariables | null>(null);
  const preview = useRetrievePreviewQuery(submitted ?? NOT_YET, {
    enabled: submitted !== null,
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
  });
  const s = settings.data?.memorySettings;
  const memoryOff = useMemoryOff();
  // Starts from what the gateway would use: the saved strategy and budget, and the most recently used key.
  const form = useDraftForm<Draft>({
    source: {
      query: '',
      apiKeyId: recent.data?.memories.items[0]?.apiKeyId ?? '',
      sessionId: '',
      strategy: s?.strategy ?? 'HYBRID',
      maxTokens: s ? String(s.maxTokens) : '',
    },
    error: preview.error,
    check: (d) => ({
      apiKeyId: d.apiKeyId.trim() === '' ? 'Enter the API key whose memories to search.' : undefined,
      maxTokens: numberProblem('The token budget', d.maxTokens, { required: true }),
    }),
    onSubmit: (d) => {
      const variables: RetrievePreviewQueryVariables = {
        input: {
          apiKeyId: d.apiKeyId.trim(),
          query: d.query,
          strategy: d.strategy,
          maxTokens: numberOf(d.maxTokens),
          ...(d.sessionId.trim() ? { sessionId: d.sessionId.trim() } : {}),
        },
      };
      // The same question again is a fresh run, not the cached answer: memories may have changed meanwhile.
      if (submitted && JSON.stringify(submitted) === JSON.stringify(variables)) void preview.refetch();
      else setSubmitted(variables);
    },
  });
  const draft = form.draft!;
  const formRef = useRef<HTMLFormElement>(null);

  function onQueryKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  }

  const set = (patch: Partial<Draft>) => form.edit(patch);
  const inputError = preview.error instanceof GraphQLRequestError && preview.error.code === 'BAD_USER_INPUT';

  const running = preview.isFetching;
  const result = preview.data?.retrievePreview;
  const submittedQuery = submitted?.input.query ?? '';
  // Recent injections follow the key simulated last, else the most recently written one; a new key starts at its newest.
  const injectionsKey = (submitted?.input.apiKeyId ?? recent.data?.memories.items[0]?.apiKeyId ?? '').trim();

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Retrieval playground</h1>
          <p className="muted">A dry run of what the gateway would inject for a message. Nothing is counted or changed.</p>
        </div>
      </div>

      <form ref={formRef} className="card pg-form" onSubmit={form.submit} aria-label="Simulate a retrieval" noValidate>
        <label className="field">
          <span>Query</span>
          <textarea
            className="pg-query"
            value={draft.query}
            onChange={(e) => set({ query: e.target.value })}
            onKeyDown={onQueryKey}
            placeholder="The user's last message, e.g. “Which editor theme do I like?”"
            rows={2}
          />
        </label>
        <div className="pg-controls">
          <DraftField form={form} name="apiKeyId" label="API key" className="pg-key" apiKey placeholder="e.g. acme-prod" />
          <DraftField
            form={form}
            name="sessionId"
            label="Session (optional)"
            className="pg-session"
            placeholder="all sessions"
            autoComplete="off"
          />
          <fieldset className="field pg-strategy">
            <legend>Strategy</legend>
            <div className="segmented">
              {STRATEGIES.map((s) => (
                <label key={s.value} title={s.hint} className={draft.strategy === s.value ? 'on' : undefined}>
                  <input
                    type="radio"
                    name="strategy"
                    value={s.value}
                    checked={draft.strategy === s.value}
                    onChange={() => set({ strategy: s.value })}
                  />
                  {s.label}
                </label>
              ))}
            </div>
          </fieldset>
          <DraftField form={form} name="maxTokens" label="Token budget" className="pg-budget" inputMode="numeric" />
          <div className="pg-run">
            <button type="submit" className="primary" disabled={running}>
              {running ? 'Simulating…' : 'Simulate'}
            </button>
            <span className="kbd-hint muted">
              <kbd>{isMac ? '⌘' : 'Ctrl'}</kbd> + <kbd>Enter</kbd>
            </span>
          </div>
        </div>
        {form.formProblems.map((p) => (
          <p key={p} role="alert" className="error">
            {p}
          </p>
        ))}
        {submitted === null && draft.apiKeyId === '' && recent.isSuccess && recent.data.memories.items.length === 0 && (
          <p className="muted small-note">No memories are stored yet: add some in the Memories tab or through the API first.</p>
        )}
      </form>

      {preview.isError && !inputError ? (
        <div className="card">
          <ErrorNote error={preview.error} prefix="The simulation failed" />
        </div>
      ) : submitted === null || (preview.isError && inputError) ? (
        <div className="card empty-state">
          <h2>Nothing simulated yet</h2>
          <p className="muted">
            Type a message, pick the API key and press <strong>Simulate</strong> to see the ranked memories, how the engine resolved the
            query and the exact block the gateway would inject.
          </p>
        </div>
      ) : !result ? (
        <div className="card empty-state" aria-busy="true">
          <p className="muted">Running the retrieval…</p>
        </div>
      ) : (
        <Outcome result={result} query={submittedQuery} apiKeyId={submitted.input.apiKeyId ?? ''} stale={running} memoryOff={memoryOff} />
      )}
      <RecentInjections key={injectionsKey} apiKeyId={injectionsKey} />
    </>
  );
}

function Outcome({
  result,
  query,
  apiKeyId,
  stale,
  memoryOff,
}: {
  result: Result;
  query: string;
  apiKeyId: string;
  stale: boolean;
  memoryOff: boolean;
}) {
  const keeping = useKeepQuestion(apiKeyId, query);
  return (
    <div className={stale ? 'pg-grid stale' : 'pg-grid'} aria-busy={stale}>
      {memoryOff && (
        // retrievePreview runs whatever the settings say; the gateway's own calls do not.
        <p className="warning pg-off" role="note" aria-label="Memory is off">
          <strong>Memory is off:</strong> a gateway's injectMemory gets no memories now and its request goes on unchanged. This preview
          shows what it would get once memory is on.
        </p>
      )}
      <div className="pg-main">
        <ResultsCard result={result} query={query} keeping={keeping} />
        <BlockCard block={result.block} memoryOff={memoryOff} />
      </div>
      <div className="pg-side">
        <BudgetCard result={result} />
        <ResolutionCard result={result} query={query} />
        <KeepQuestionCard apiKeyId={apiKeyId} query={query} state={keeping} />
      </div>
    </div>
  );
}

function ResultsCard({ result, query, keeping }: { result: Result; query: string; keeping: KeepQuestion }) {
  return (
    <section className="card" aria-labelledby="pg-results-title">
      <div className="card-head">
        <h2 id="pg-results-title">Ranked results</h2>
        <span className="muted">
          {result.items.length} injected · {result.candidates} {result.candidates === 1 ? 'candidate' : 'candidates'} considered
        </span>
      </div>
      {result.items.length === 0 ? (
        <div className="empty-inline">
          <p>
            <strong>Nothing would be injected.</strong>
          </p>
          <p className="muted">
            {result.candidates > 0
              ? `${result.candidates} memories matched, but none fits in a budget of ${formatInt(result.maxTokens)} tokens.`
              : query.trim() === '' && result.resolution.requestedStrategy !== 'EXACT'
                ? 'The query is empty: keyword and semantic search need words to match.'
                : 'No memory of this API key matched the query (expired, archived and out-of-retention memories are never retrieved).'}
          </p>
        </div>
      ) : (
        <ResultsTable items={result.items} keeping={keeping} />
      )}
    </section>
  );
}

function BlockCard({ block, memoryOff }: { block: string | null; memoryOff: boolean }) {
  return (
    <section className="card" aria-labelledby="pg-block-title">
      <div className="card-head">
        <h2 id="pg-block-title">Injected block</h2>
        <span className="muted">{memoryOff ? 'as the gateway would send it once memory is on' : 'exactly as the gateway sends it'}</span>
        <span className="spacer" />
        {block !== null && <CopyButton text={block} label="Copy block" />}
      </div>
      {block === null ? (
        <p className="muted">No block: the request would be forwarded unchanged.</p>
      ) : (
        <section aria-label="Injected memory block">
          <pre className="block pg-block">{block}</pre>
        </section>
      )}
    </section>
  );
}

/** The results table's numeric columns, after the memory and its tier. */
const SCORE_COLUMNS = ['Score', 'Keyword', 'Vector', 'Tokens'] as const;

function ResultsTable({ items, keeping }: { items: Result['items']; keeping: KeepQuestion }) {
  return (
    <ScrollRegion label="Results table">
      <table className="pg-table">
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Memory</th>
            <th scope="col">Tier</th>
            {SCORE_COLUMNS.map((c) => (
              <th key={c} scope="col" className="num">
                {c}
              </th>
            ))}
            {keeping.keep && (
              <th scope="col">
                <span className="sr-only">Keep as a question</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((item, i) => (
            <tr key={item.memory.id}>
              <td className="num rank">{i + 1}</td>
              <td className="pg-memory">
                <div className="pg-content">{item.content}</div>
                <div className="pg-meta">
                  <span className="badge grey">{item.memory.type.toLowerCase()}</span>
                  <code title="Memory key">{item.memory.key}</code>
                  {item.memory.sessionId && <span className="muted">session {item.memory.sessionId}</span>}
                  {item.adjacentTo && <AdjacentNote items={items} hitId={item.adjacentTo} />}
                  {item.truncated && (
                    <span className="badge warn" title="Cut to fit the budget">
                      truncated
                    </span>
                  )}
                </div>
              </td>
              <td>
                <span className={`badge tier tier-${item.tier.toLowerCase()}`}>{TIER_LABEL[item.tier]}</span>
              </td>
              <td className="num mono">
                {item.tier === 'ENFORCED' ? (
                  <span className="muted" title="Enforced memories are always included first; they are not ranked">
                    pinned
                  </span>
                ) : (
                  formatScore(item.score)
                )}
              </td>
              <td className="num">
                <ScoreRank score={item.keywordScore} rank={item.keywordRank} title="BM25 relevance" />
              </td>
              <td className="num">
                <ScoreRank score={item.vectorScore} rank={item.vectorRank} title="Cosine similarity" />
              </td>
              <td className="num mono">{formatInt(item.tokens)}</td>
              {keeping.keep && (
                <td>
                  <button
                    type="button"
                    className="small"
                    title="Keep this query as an evaluation question that should find this memory"
                    aria-label={`Right: ${item.memory.key}`}
                    disabled={keeping.busy}
                    onClick={() => keeping.keep?.(item.memory, 'right')}
                  >
                    Right
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Where the hit sits that raised this memory by session adjacency. */
function AdjacentNote({ items, hitId }: { items: readonly { memory: { id: string } }[]; hitId: string }) {
  const rank = items.findIndex((other) => other.memory.id === hitId) + 1;
  return (
    <span className="muted" title="Written next to that hit in the same session: a small boost that never lifts it to the hit">
      {rank > 0 ? `next to #${rank}` : 'next to a hit that did not fit'}
    </span>
  );
}

function ScoreRank({ score, rank, title }: { score: number | null; rank: number | null; title: string }) {
  if (score === null && rank === null) return <span className="muted">—</span>;
  return (
    <span className="score-rank" title={title}>
      <span className="mono">{formatScore(score)}</span>
      {rank !== null && <span className="rank-pill">#{rank}</span>}
    </span>
  );
}

function BudgetCard({ result }: { result: Result }) {
  const tone = result.maxTokens === 0 ? 'grey' : result.tokensUsed / result.maxTokens > 0.9 ? 'warn' : 'accent';
  return (
    <section className="card" aria-labelledby="pg-budget-title">
      <h3 id="pg-budget-title">Budget</h3>
      <div className="budget-figure">
        <strong>{formatInt(result.tokensUsed)}</strong>
        <span className="muted"> / {formatInt(result.maxTokens)} tokens</span>
        <span className="spacer" />
        <span className="muted">{formatPercent(result.tokensUsed, result.maxTokens)}</span>
      </div>
      <Bar
        value={result.tokensUsed}
        max={result.maxTokens}
        label="Tokens used of the budget"
        tone={tone}
        valueText={`${result.tokensUsed} of ${result.maxTokens} tokens`}
      />
      <p className="muted small-note">
        Counted with o200k_base over the whole block, frame included. Every token is billed by the provider.
      </p>
      {result.resolution.nearDuplicates > 0 && (
        <p className="muted small-note">
          {formatInt(result.resolution.nearDuplicates)} near-duplicate{result.resolution.nearDuplicates === 1 ? '' : 's'} of memories
          already in the block left out.
        </p>
      )}
    </section>
  );
}

function ResolutionCard({ result, query }: { result: Result; query: string }) {
  const r = result.resolution;
  return (
    <section className="card" aria-labelledby="pg-resolution-title">
      <h3 id="pg-resolution-title">Resolution</h3>
      {r.fallback ? (
        <div className="warning" role="note" aria-label="Fallback">
          <strong>Fell back:</strong> {shortFallback(r.fallbackReason ?? '', r.embeddingReason)}
        </div>
      ) : (
        <p className="ok-line">
          <span className="chip chip-ok">
            <span className="chip-dot" aria-hidden="true" />
            No fallback
          </span>
        </p>
      )}
      <dl className="kv">
        <dt>Strategy</dt>
        <dd>{STRATEGY_LABEL[r.requestedStrategy]}</dd>
        <dt>Tiers that ran</dt>
        <dd>
          {r.tiers.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <span className="tier-flow">
              {r.tiers.map((t, i) => (
                <span key={t}>
                  {i > 0 && <span className="muted"> → </span>}
                  <span className={`badge tier tier-${t.toLowerCase()}`}>{TIER_LABEL[t]}</span>
                </span>
              ))}
            </span>
          )}
        </dd>
        <dt>Embedding</dt>
        <dd>
          {r.requestedStrategy === 'EXACT' ? (
            <span className="muted">not used by Exact</span>
          ) : r.embeddingSource ? (
            <>
              <span className="badge">{r.embeddingSource}</span> <code>{r.embeddingModel}</code>
            </>
          ) : (
            <span className="muted">none usable</span>
          )}
          {r.embeddingReason && <Reason text={r.embeddingReason} />}
        </dd>
        <dt>Vector store</dt>
        <dd>{r.vectorStore ?? <span className="muted">not used</span>}</dd>
        <dt>Fusion</dt>
        <dd>
          {r.fusion ? (
            <>
              keyword <code>{formatShare(r.fusion.keywordShare)}</code> · vector <code>{formatShare(r.fusion.vectorShare)}</code>{' '}
              <span className="muted">(normalised scores, combined)</span>
              <div className="reason">{r.fusion.reason}</div>
            </>
          ) : (
            <span className="muted">{r.requestedStrategy === 'HYBRID' ? 'one tier answered: nothing to fuse' : 'not used'}</span>
          )}
        </dd>
        <dt>Speaker</dt>
        <dd>
          {r.speaker ? (
            <>
              {SPEAKER_LABEL[r.speaker]}
              <div className="reason">Memories said by that side of a conversation rank higher.</div>
            </>
          ) : (
            <span className="muted">{r.requestedStrategy === 'EXACT' ? 'not used by Exact' : 'the query asks about neither side'}</span>
          )}
        </dd>
        <dt>Rerank</dt>
        <dd>
          {r.reranked ? (
            <>
              <span className="badge ok">applied</span> <code>{r.rerankModel}</code>
            </>
          ) : (
            <span className="badge grey">not applied</span>
          )}
          <div className="reason">{rerankExplanation(r, result.candidates, query)}</div>
        </dd>
      </dl>
    </section>
  );
}

const SPEAKER_LABEL: Record<NonNullable<Result['resolution']['speaker']>, string> = {
  USER: "asks about the user's own words",
  ASSISTANT: "asks about the assistant's words",
};

const formatShare = (w: number) => (Number.isInteger(w) ? String(w) : w.toFixed(2));

/**
 * The fallback reason repeats the embedding reason in parentheses; the Embedding row below shows that one
 * in full, so the note keeps only what fell back and what answered.
 */
function shortFallback(reason: string, embeddingReason: string | null): string {
  return embeddingReason ? reason.replace(` (${embeddingReason})`, ' (see Embedding)') : reason;
}

/** The server names a reason when a reranker was considered; otherwise the retrieval never got that far, and this says why. */
function rerankExplanation(r: Result['resolution'], candidates: number, query: string): string {
  if (r.rerankReason) return r.rerankReason;
  if (r.requestedStrategy === 'EXACT') return 'Exact ranks newest first; it is never reranked.';
  if (query.trim() === '') return 'No query to rerank against.';
  if (r.fallback && r.requestedStrategy === 'SEMANTIC') return 'Keyword fallback results are not reranked.';
  if (candidates < 2) return 'Fewer than two candidates: nothing to reorder.';
  return 'Not attempted.';
}
