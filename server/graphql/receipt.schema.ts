import type { InjectedEntry, LeftOutEntry, LeftOutReason, Receipt, ReceiptEntry } from '../retrieval/receipt.ts';
import { builder } from './builder.ts';
import { MemoryRef } from './memory.schema.ts';
import { ResolutionRef, RetrievalResultRef, TierEnum } from './retrieval.schema.ts';

const LeftOutReasonEnum = builder.enumType('LeftOutReason', {
  description: 'Why a candidate the retrieval saw was left out of the block.',
  values: {
    OVER_BUDGET: { value: 'over_budget', description: 'Its line did not fit in what was left of the token budget.' },
    NEAR_DUPLICATE: { value: 'near_duplicate', description: 'It nearly repeats, word for word, a memory already in the block.' },
    OVER_LIMIT: { value: 'over_limit', description: 'The block already held as many memories as the limit allows.' },
    BELOW_FLOOR: {
      value: 'below_floor',
      description:
        'Under the relevance floor, it never reached the budget walk: no keyword match that is evidence for the query backs it (none, or a single common word: one held by a fifth of the memories of a large key, or a number of one or two digits), and the vector tier did not find it near the head of a list that is evidence on its own.',
    },
    IN_ITS_TURN: {
      value: 'in_its_turn',
      description:
        "A fact extracted from a captured turn that the block holds: the turn says it in the user's words, so it is not said twice.",
    },
  } as const satisfies Record<Uppercase<LeftOutReason>, { value: LeftOutReason; description: string }>,
});

const ReceiptSkipEnum = builder.enumType('ReceiptSkip', {
  values: {
    DISABLED: { value: 'disabled', description: 'Memory is switched off in the settings: nothing was retrieved.' },
    OPTED_OUT: { value: 'opted_out', description: 'The request asked for no memory: nothing was retrieved.' },
    ZERO_BUDGET: { value: 'zero_budget', description: 'maxTokens is 0: nothing was retrieved.' },
  } as const,
});

const ReceiptCandidateRef = builder.interfaceRef<ReceiptEntry>('ReceiptCandidate').implement({
  description: 'A memory the retrieval considered for the block, as the budget walk saw it.',
  fields: (t) => ({
    memoryId: t.exposeID('memoryId'),
    memory: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory as it is now; null when it was deleted since (a logged receipt).',
      resolve: (e) => e.memory,
    }),
    tier: t.expose('tier', { type: TierEnum }),
    rank: t.exposeInt('rank', {
      description: 'Its place, from 1, in the order the budget walk went through: enforced memories, the ranking, then standing facts.',
    }),
    score: t.exposeFloat('score', { description: 'The fused score (the rerank score when reranked), with any session-adjacency boost.' }),
    keywordScore: t.exposeFloat('keywordScore', { nullable: true, description: 'BM25 relevance, when keyword search found it.' }),
    vectorScore: t.exposeFloat('vectorScore', { nullable: true, description: 'Cosine similarity, when vector search found it.' }),
  }),
});

const InjectedCandidateRef = builder.objectRef<InjectedEntry>('InjectedCandidate').implement({
  interfaces: [ReceiptCandidateRef],
  isTypeOf: (e) => 'tokens' in (e as object),
  fields: (t) => ({
    tokens: t.exposeInt('tokens', { description: 'Tokens it cost in the block.' }),
    truncated: t.exposeBoolean('truncated', {
      description: 'Cut to fit the budget: the whole memory exceeded what was left, or would have crowded out the hits after it.',
    }),
  }),
});

const LeftOutCandidateRef = builder.objectRef<LeftOutEntry>('LeftOutCandidate').implement({
  interfaces: [ReceiptCandidateRef],
  isTypeOf: (e) => 'reason' in (e as object),
  fields: (t) => ({ reason: t.expose('reason', { type: LeftOutReasonEnum }) }),
});

export const ReceiptRef = builder.objectRef<Receipt>('RetrievalReceipt').implement({
  description: 'What one retrieval did with every candidate it saw, and with its budget: the decisions as the pipeline made them.',
  fields: (t) => ({
    skipped: t.expose('skipped', { type: ReceiptSkipEnum, nullable: true, description: 'Why nothing was retrieved, when so.' }),
    maxTokens: t.exposeInt('maxTokens', { nullable: true, description: 'The budget; null when the request opted out.' }),
    tokensUsed: t.exposeInt('tokensUsed'),
    resolution: t.field({
      type: ResolutionRef,
      nullable: true,
      description: 'Strategy, tiers, fallback and fusion shares; null when the request opted out.',
      resolve: (r) => r.resolution,
    }),
    injected: t.field({ type: [InjectedCandidateRef], description: 'In the order of the block.', resolve: (r) => r.injected }),
    leftOut: t.field({ type: [LeftOutCandidateRef], description: 'By rank.', resolve: (r) => r.leftOut }),
  }),
});

builder.objectField(RetrievalResultRef, 'receipt', (t) =>
  t.field({
    type: ReceiptRef,
    nullable: true,
    description: 'What became of every candidate: set when the input asked for a receipt (or the injection log keeps one).',
    resolve: (r) => r.receipt,
  }),
);
