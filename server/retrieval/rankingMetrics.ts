/**
 * How well a ranking found what it should have: hit@k, mean reciprocal rank and evidence recall over labelled
 * questions. Pure; `npm run eval` scores the dev sets with it, and evaluation runs score a key's own questions.
 */

/** One question's ranking against its relevant items. */
export interface Outcome {
  /** 1-based rank of the first relevant result, or null. */
  firstHit: number | null;
  /** Relevant results among the first max-k, over all relevant items of the question. */
  evidenceRecall: number;
}

export interface MetricRow {
  group: string;
  questions: number;
  /** k → share of questions with at least one relevant memory among the first k results. */
  hitAt: Record<number, number>;
  /** Mean over questions of 1/rank of the first relevant result within the first max-k; 0 if none. */
  mrr: number;
  /** Mean over questions of the share of its relevant memories among the first max-k results. */
  evidenceRecall: number;
}

/** Scores one ranked list (of memory keys or ids) against the question's relevant ones. */
export function score(question: { relevant: ReadonlySet<string> }, ranked: readonly string[], ks: readonly number[]): Outcome {
  const top = ranked.slice(0, Math.max(...ks));
  const index = top.findIndex((k) => question.relevant.has(k));
  const found = new Set(top.filter((k) => question.relevant.has(k))).size;
  return { firstHit: index === -1 ? null : index + 1, evidenceRecall: found / question.relevant.size };
}

/** The metrics of a group of outcomes; every one is 0 for an empty group. */
export function aggregate(group: string, outcomes: readonly Outcome[], ks: readonly number[]): MetricRow {
  const n = outcomes.length;
  const mean = (f: (o: Outcome) => number) => (n === 0 ? 0 : outcomes.reduce((s, o) => s + f(o), 0) / n);
  const hitAt: Record<number, number> = {};
  for (const k of ks) hitAt[k] = mean((o) => (o.firstHit !== null && o.firstHit <= k ? 1 : 0));
  return {
    group,
    questions: n,
    hitAt,
    mrr: mean((o) => (o.firstHit === null ? 0 : 1 / o.firstHit)),
    evidenceRecall: mean((o) => o.evidenceRecall),
  };
}
