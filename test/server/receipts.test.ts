import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySearch } from '../../server/mcp/retrieval.tools.ts';
import { graphql, type VariablesOf } from '../helpers/graphql.ts';
import { call, httpTransport, mcpClient } from '../helpers/mcp.ts';
import { CREATE_MEMORY, IMPORT_MEMORIES, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

const RECEIPT = graphql(`
  fragment ReceiptsReceipt on RetrievalReceipt {
    skipped
    maxTokens
    tokensUsed
    resolution {
      requestedStrategy
      tiers
      fallback
    }
    injected {
      memoryId
      memory {
        content
      }
      tier
      rank
      score
      keywordScore
      vectorScore
      tokens
      truncated
    }
    leftOut {
      memoryId
      memory {
        content
      }
      tier
      rank
      score
      keywordScore
      reason
    }
  }
`);

const INJECT = graphql(
  `
    mutation ReceiptsInject($input: InjectMemoryInput!) {
      injectMemory(input: $input) {
        injected
        retrieval {
          tokensUsed
          items {
            memory {
              id
            }
          }
        }
        receipt {
          ...ReceiptsReceipt
        }
      }
    }
  `,
  [RECEIPT],
);

const PREVIEW = graphql(
  `
    query ReceiptsPreview($input: RetrieveInput!) {
      retrievePreview(input: $input) {
        receipt {
          ...ReceiptsReceipt
        }
      }
    }
  `,
  [RECEIPT],
);

type Retrieval = VariablesOf<typeof INJECT>['input']['retrieval'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // Off: a question asked twice would otherwise be recalled as a memory of its own.
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'OFF' } });
});
afterAll(() => app.close());

const chat = (question: string) => ({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] });
const inject = async (question: string, retrieval: Retrieval, noMemory = false) =>
  (await app.ok(INJECT, { input: { request: chat(question), provider: 'openai/gpt-4o', noMemory, retrieval } })).injectMemory;
const remember = async (apiKeyId: string, ...contents: string[]) => {
  for (const content of contents) await app.ok(CREATE_MEMORY, { input: { apiKeyId, content } });
};

describe('a receipt of injectMemory', () => {
  it('names each injected memory with its tier, scores, rank and tokens, as the block has them', async () => {
    await remember('r-named', 'Uses the Helix editor for all code', 'Has a cat named Miso');
    const r = await inject('Which editor, Helix?', { apiKeyId: 'r-named', receipt: true });
    expect(r.receipt?.skipped).toBeNull();
    expect(r.receipt?.injected.map((i) => i.memoryId)).toEqual(r.retrieval?.items.map((i) => i.memory.id));
    expect(r.receipt?.injected[0]).toMatchObject({
      memory: { content: 'Uses the Helix editor for all code' },
      tier: 'KEYWORD',
      rank: 1,
      vectorScore: null,
      truncated: false,
    });
    expect(r.receipt?.injected[0]?.keywordScore).toBeGreaterThan(0);
    expect(r.receipt?.injected[0]?.tokens).toBeGreaterThan(0);
    expect(r.receipt?.tokensUsed).toBe(r.retrieval?.tokensUsed);
    expect(r.receipt?.resolution).toMatchObject({ requestedStrategy: 'HYBRID', tiers: ['KEYWORD'], fallback: true });
  });

  it('is not made unless asked for', async () => {
    await remember('r-unasked', 'Uses the Helix editor for all code');
    const r = await inject('Which editor, Helix?', { apiKeyId: 'r-unasked' });
    expect(r.injected).toBe(true);
    expect(r.receipt).toBeNull();
  });

  it('lists the memories a tight budget left out as over budget', async () => {
    await remember(
      'r-budget',
      'Helix editor keys: space f opens the file picker',
      'Helix editor themes live in the runtime folder of the config',
    );
    const roomy = (await inject('helix editor', { apiKeyId: 'r-budget', receipt: true })).receipt!;
    expect(roomy.injected).toHaveLength(2);
    const [first] = roomy.injected;
    const frame = roomy.tokensUsed - roomy.injected.reduce((sum, i) => sum + i.tokens, 0);
    const tight = (await inject('helix editor', { apiKeyId: 'r-budget', receipt: true, maxTokens: frame + first!.tokens })).receipt!;
    expect(tight.injected.map((i) => i.memoryId)).toEqual([first!.memoryId]);
    expect(tight.leftOut).toEqual([expect.objectContaining({ memoryId: roomy.injected[1]!.memoryId, rank: 2, reason: 'OVER_BUDGET' })]);
    expect(tight.maxTokens).toBe(frame + first!.tokens);
  });

  it('lists the best memory as injected, shortened, when none fits whole, and the others as over budget', async () => {
    await remember(
      'r-cut',
      'Helix editor notes: the picker, the themes, the language servers and the keymap all live in one folder',
      'Helix editor plugins are not supported yet, so the user keeps a few shell scripts around the editor',
    );
    const roomy = (await inject('helix editor', { apiKeyId: 'r-cut', receipt: true })).receipt!;
    const frame = roomy.tokensUsed - roomy.injected.reduce((sum, i) => sum + i.tokens, 0);
    const cut = (await inject('helix editor', { apiKeyId: 'r-cut', receipt: true, maxTokens: frame + 12 })).receipt!;
    expect(cut.injected).toEqual([expect.objectContaining({ memoryId: roomy.injected[0]!.memoryId, rank: 1, truncated: true })]);
    expect(cut.leftOut).toEqual([expect.objectContaining({ memoryId: roomy.injected[1]!.memoryId, rank: 2, reason: 'OVER_BUDGET' })]);
  });

  it('lists a near-duplicate of an injected memory as such', async () => {
    // Imported under keys of their own: a createMemory would merge the second into the first, as the same fact.
    await app.ok(IMPORT_MEMORIES, {
      memories: [
        { apiKeyId: 'r-dup', key: 'dark-1', content: 'I prefer dark mode in every editor I use' },
        { apiKeyId: 'r-dup', key: 'dark-2', content: 'I prefer dark mode in every editor I use.' },
      ],
    });
    const receipt = (await inject('dark mode editor', { apiKeyId: 'r-dup', receipt: true })).receipt!;
    expect(receipt.injected).toHaveLength(1);
    expect(receipt.leftOut).toEqual([expect.objectContaining({ rank: 2, reason: 'NEAR_DUPLICATE' })]);
  });

  it('lists the memories past the limit as over the limit', async () => {
    await remember('r-limit', 'Helix editor keys: space f opens the file picker', 'Helix editor themes live in the runtime folder');
    const receipt = (await inject('helix editor', { apiKeyId: 'r-limit', receipt: true, limit: 1 })).receipt!;
    expect(receipt.injected).toHaveLength(1);
    expect(receipt.leftOut).toEqual([expect.objectContaining({ rank: 2, reason: 'OVER_LIMIT' })]);
  });

  it('says so when the request opted out of memory', async () => {
    await remember('r-optout', 'Uses the Helix editor for all code');
    const r = await inject('Which editor, Helix?', { apiKeyId: 'r-optout', receipt: true }, true);
    expect(r.receipt).toEqual({ skipped: 'OPTED_OUT', maxTokens: null, tokensUsed: 0, resolution: null, injected: [], leftOut: [] });
  });

  it('says so when the budget is 0', async () => {
    await remember('r-zero', 'Uses the Helix editor for all code');
    const r = await inject('Which editor, Helix?', { apiKeyId: 'r-zero', receipt: true, maxTokens: 0 });
    expect(r.receipt).toMatchObject({ skipped: 'ZERO_BUDGET', maxTokens: 0, injected: [], leftOut: [] });
  });
});

describe('a receipt with memory switched off', () => {
  it('says that nothing was retrieved because memory is off', async () => {
    const off = await startTestApp();
    try {
      await off.ok(CREATE_MEMORY, { input: { apiKeyId: 'r-off', content: 'Uses the Helix editor for all code' } });
      const { injectMemory } = await off.ok(INJECT, {
        input: { request: chat('Which editor, Helix?'), provider: 'openai/gpt-4o', retrieval: { apiKeyId: 'r-off', receipt: true } },
      });
      expect(injectMemory.injected).toBe(false);
      expect(injectMemory.receipt).toMatchObject({ skipped: 'DISABLED', injected: [], leftOut: [] });
    } finally {
      await off.close();
    }
  });
});

describe('a receipt of retrievePreview', () => {
  it('is the same account of the candidates as the injection makes', async () => {
    await remember('r-preview', 'Helix editor keys: space f opens the file picker', 'Helix editor themes live in the runtime folder');
    const preview = (await app.ok(PREVIEW, { input: { apiKeyId: 'r-preview', query: 'helix editor', limit: 1, receipt: true } }))
      .retrievePreview.receipt!;
    const injected = (await inject('helix editor', { apiKeyId: 'r-preview', receipt: true, limit: 1 })).receipt!;
    expect(preview.injected.map((i) => i.memoryId)).toEqual(injected.injected.map((i) => i.memoryId));
    expect(preview.leftOut.map((i) => [i.memoryId, i.reason])).toEqual(injected.leftOut.map((i) => [i.memoryId, i.reason]));
  });
});

describe('a receipt over MCP', () => {
  it('memory_search answers one when asked: the memories by id, each left out with its reason', async () => {
    await remember('r-mcp', 'Helix editor keys: space f opens the file picker', 'Helix editor themes live in the runtime folder');
    const client = await mcpClient(httpTransport(app.url, ADMIN_TOKEN));
    try {
      const plain = await call(client, memorySearch, { apiKeyId: 'r-mcp', query: 'helix editor', limit: 1 });
      expect(plain.receipt).toBeUndefined();
      const answer = await call(client, memorySearch, { apiKeyId: 'r-mcp', query: 'helix editor', limit: 1, receipt: true });
      expect(answer.receipt?.injected.map((i) => i.memoryId)).toEqual(answer.memories.map((m) => m.id));
      expect(answer.receipt?.leftOut).toEqual([expect.objectContaining({ rank: 2, tier: 'keyword', reason: 'over_limit' })]);
      expect(answer.receipt?.resolution?.requestedStrategy).toBe('HYBRID');
    } finally {
      await client.close();
    }
  });
});
