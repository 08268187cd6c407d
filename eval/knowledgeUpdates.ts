/**
 * LongMemEval's knowledge-update questions in the gateway eval: the user said one thing in an earlier session and
 * its update in a later one (both turns marked as evidence). Measured per question: whether the injected block holds
 * the latest evidence and not the earlier, and the rank of the latest in retrieve's list (R@1, MRR).
 */
import type { Memory } from '../server/memory/memory.ts';
import { type EvalQuestion, type EvalTenant, timeOf } from './datasets.ts';

export const KNOWLEDGE_UPDATE = 'knowledge-update';

/** A question about what held before the update ("initially", "previous"): the earlier evidence is its answer. */
const ASKS_THE_PAST = /\b(?:initially|originally|previous(?:ly)?|before|earlier|first|used\s+to)\b/iu;

interface Said {
  text: string;
  at: number | null;
}

export interface UpdateEvidence {
  latest: Said;
  earlier: Said[];
  answerWords: string[];
  asksThePast: boolean;
}

const collapse = (text: string) => text.replace(/\s+/gu, ' ').trim();
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The question's evidence split into the latest turn and the earlier ones; null unless it has turns at two moments. */
export function updateEvidenceOf(question: EvalQuestion, tenant: EvalTenant): UpdateEvidence | null {
  if (question.type !== KNOWLEDGE_UPDATE) return null;
  const turns = tenant.memories
    .filter((m) => question.relevant.has(m.key))
    .map((m) => ({ text: collapse(m.content), at: timeOf(m) }))
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  const latest = turns.at(-1);
  if (latest === undefined || turns.length < 2 || turns[0]!.at === latest.at) return null;
  return {
    latest,
    earlier: turns.filter((t) => t.at !== latest.at),
    answerWords: [...new Set(words(question.answer ?? ''))],
    asksThePast: ASKS_THE_PAST.test(question.query),
  };
}

/**
 * Whether a memory comes from a turn: it holds the turn's text (a turn imported or captured), or it is a fact extracted
 * when the turn was said (the replay's clock is the turn's time) and last written then.
 */
function from(memory: Pick<Memory, 'content' | 'metadata' | 'updatedAt'>, said: Said): boolean {
  if (collapse(memory.content).includes(said.text)) return true;
  return memory.metadata.source === 'extraction' && said.at !== null && memory.updatedAt.getTime() === said.at;
}

/** The latest evidence: its turn, or an extracted fact holding every word of the answer. */
function holdsLatest(memory: Pick<Memory, 'content' | 'metadata' | 'updatedAt'>, ev: UpdateEvidence): boolean {
  if (from(memory, ev.latest)) return true;
  if (memory.metadata.source !== 'extraction' || ev.answerWords.length === 0) return false;
  const factWords = new Set(words(memory.content));
  return ev.answerWords.every((w) => factWords.has(w));
}

export interface UpdateOutcome {
  asksThePast: boolean;
  /** 1-based rank of the first memory with the latest evidence in retrieve's list, or null. */
  latestRank: number | null;
  latestInBlock: boolean;
  earlierInBlock: boolean;
}

type Item = { memory: Pick<Memory, 'content' | 'metadata' | 'updatedAt'> };

export function updateOutcome(ev: UpdateEvidence, ranked: readonly Item[], block: readonly Item[]): UpdateOutcome {
  const index = ranked.findIndex((item) => holdsLatest(item.memory, ev));
  return {
    asksThePast: ev.asksThePast,
    latestRank: index === -1 ? null : index + 1,
    latestInBlock: block.some((item) => holdsLatest(item.memory, ev)),
    earlierInBlock: block.some((item) => ev.earlier.some((said) => from(item.memory, said) && !holdsLatest(item.memory, ev))),
  };
}

export interface UpdateMetrics {
  questions: number;
  /** Shares of the questions about the current value: the block holds the latest evidence and none of the earlier. */
  latestOnly: number;
  latestInBlock: number;
  earlierInBlock: number;
  /** Of the latest evidence in retrieve's list. */
  r1: number;
  mrr: number;
}

/** Over the questions that ask what holds now (those about the past are left out: the earlier evidence answers them). */
export function updateMetrics(outcomes: readonly UpdateOutcome[]): UpdateMetrics {
  const now = outcomes.filter((o) => !o.asksThePast);
  const n = now.length;
  const mean = (f: (o: UpdateOutcome) => number) => (n === 0 ? 0 : now.reduce((s, o) => s + f(o), 0) / n);
  return {
    questions: n,
    latestOnly: mean((o) => (o.latestInBlock && !o.earlierInBlock ? 1 : 0)),
    latestInBlock: mean((o) => (o.latestInBlock ? 1 : 0)),
    earlierInBlock: mean((o) => (o.earlierInBlock ? 1 : 0)),
    r1: mean((o) => (o.latestRank === 1 ? 1 : 0)),
    mrr: mean((o) => (o.latestRank === null ? 0 : 1 / o.latestRank)),
  };
}
