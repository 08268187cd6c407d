import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnsAtTheirFactsPlace } from '../../server/retrieval/factsInTurns.ts';
import type { RetrievedMemory } from '../../server/retrieval/retrieval.ts';
import { graphql } from '../helpers/graphql.ts';
import { EXTRACT_FACTS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

// A fact extracted from a captured turn and the turn itself are one statement: a block holds it once, as the turn.

const INJECT = graphql(`
  mutation FactsInTurnsInject($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      receipt {
        injected {
          memoryId
        }
        leftOut {
          memoryId
          reason
        }
      }
    }
  }
`);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'USER' } });
});
afterAll(() => app.close());

const TEA = 'I prefer green tea over coffee these days, because caffeine in the evening keeps me awake until two.';

const said = async () => {
  const apiKeyId = `fit-${randomUUID().slice(0, 8)}`;
  const r = (await app.ok(EXTRACT_FACTS, { input: { apiKeyId, sessionId: 's1', role: 'USER', text: TEA } })).extractFacts;
  expect(r.memories).toHaveLength(1);
  return { apiKeyId, turn: r.captured[0]!.id, fact: r.memories[0]!.id };
};
const ask = async (apiKeyId: string, maxTokens?: number) =>
  (
    await app.ok(INJECT, {
      input: {
        provider: 'openai/gpt-4o',
        request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'green tea or coffee?' }] },
        retrieval: { apiKeyId, receipt: true, maxTokens },
      },
    })
  ).injectMemory.receipt!;

describe('a fact and the turn it was said in', () => {
  it('are injected once, as the turn, with the fact left out as said in it', async () => {
    const { apiKeyId, turn, fact } = await said();
    const receipt = await ask(apiKeyId);
    expect(receipt.injected.map((i) => i.memoryId)).toEqual([turn]);
    expect(receipt.leftOut).toEqual([{ memoryId: fact, reason: 'IN_ITS_TURN' }]);
  });

  it('leave the fact in the block when the turn does not fit the budget', async () => {
    const { apiKeyId, fact } = await said();
    // Room for the short fact's line and the block's frame, not for the whole message.
    const receipt = await ask(apiKeyId, 40);
    expect(receipt.injected.map((i) => i.memoryId)).toEqual([fact]);
  });
});

describe('the ranking of facts and their turns', () => {
  const memory = (id: string, score: number, sourceTurn?: string, tier: RetrievedMemory['tier'] = 'keyword') =>
    ({ memory: { id, metadata: sourceTurn ? { sourceTurn } : {} }, score, tier }) as unknown as RetrievedMemory;
  const ids = (ranked: RetrievedMemory[]) => ranked.map((c) => c.memory.id);

  it('moves a turn up to the place of its fact, the fact right after it', () => {
    const out = turnsAtTheirFactsPlace([memory('fact', 3, 'turn'), memory('other', 2), memory('turn', 1)]);
    expect(ids(out)).toEqual(['turn', 'fact', 'other']);
    expect(out[0]!.score).toBe(3);
  });

  it('keeps a turn found first where it is, its facts after it', () => {
    const out = turnsAtTheirFactsPlace([memory('turn', 3), memory('other', 2), memory('fact', 1, 'turn')]);
    expect(ids(out)).toEqual(['turn', 'fact', 'other']);
  });

  it('leaves a fact whose turn was not found, and an enforced fact, where they are', () => {
    const out = turnsAtTheirFactsPlace([memory('pinned', 9, 'turn', 'enforced'), memory('alone', 3, 'gone'), memory('turn', 1)]);
    expect(ids(out)).toEqual(['pinned', 'alone', 'turn']);
  });
});
