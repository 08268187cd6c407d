import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../server/memory/memory.ts';
import type { RetrievedMemory } from '../../server/retrieval/retrieval.ts';
import { askedSpeaker, preferSpeaker, SPEAKER_LIFT } from '../../server/retrieval/speaker.ts';
import { graphql } from '../helpers/graphql.ts';
import { CREATE_MEMORY, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

describe('whose words a question asks about', () => {
  it('is the user when they ask about their own life', () => {
    expect(askedSpeaker('What did I buy for my sister’s birthday?')).toBe('user');
    expect(askedSpeaker('Where do I take yoga classes?')).toBe('user');
  });

  it('is the assistant when the question asks back what it said', () => {
    expect(askedSpeaker('What was the Jamaican dish you recommended I try with snapper?')).toBe('assistant');
    expect(askedSpeaker('How many eggs did you say we need for the omelette?')).toBe('assistant');
    expect(askedSpeaker('Can I see your suggestions again?')).toBe('assistant');
  });

  it('is neither side when the user asks to be reminded of a past exchange', () => {
    expect(askedSpeaker('Can you remind me how many mummies the party will face in the temple?')).toBeNull();
    expect(askedSpeaker('I was going through our previous chat about Borges and the Library of Babel.')).toBeNull();
  });

  it('is neither side when nobody is named', () => {
    expect(askedSpeaker('postgres connection pool size')).toBeNull();
    expect(askedSpeaker('Which editor should be configured?')).toBeNull();
  });
});

const said = (pk: number, score: number, role?: string) =>
  ({ memory: { pk, metadata: role ? { role } : {} } as unknown as Memory, score }) as RetrievedMemory;
const order = (ranked: RetrievedMemory[]) => ranked.map((c) => c.memory.pk);

describe('a ranking with the asked speaker preferred', () => {
  it('lifts the asked speaker’s memories by a share of the score range and reorders the ranking', () => {
    // Range 0.9 − 0.1: memory 2 gains 0.5 × 0.8 = 0.4, past memory 1.
    const out = preferSpeaker([said(1, 0.9, 'assistant'), said(2, 0.6, 'user'), said(3, 0.1)], 'user');
    expect(order(out)).toEqual([2, 1, 3]);
    expect(out[0]!.score).toBeCloseTo(0.6 + SPEAKER_LIFT * 0.8, 10);
  });

  it('lifts even the last hit, whose normalised score is 0', () => {
    const out = preferSpeaker([said(1, 1, 'assistant'), said(2, 0.4, 'assistant'), said(3, 0, 'user')], 'user');
    expect(order(out)).toEqual([1, 3, 2]);
  });

  it('keeps the other speaker first when it matches far better', () => {
    const out = preferSpeaker([said(1, 1, 'assistant'), said(2, 0.2, 'user'), said(3, 0)], 'user');
    expect(order(out)).toEqual([1, 2, 3]);
  });

  it('leaves memories without a speaker (facts, notes) where they were against each other', () => {
    const out = preferSpeaker([said(1, 0.9), said(2, 0.5), said(3, 0.4, 'user')], 'user');
    expect(order(out)).toEqual([1, 3, 2]);
  });

  it('changes nothing when no speaker is asked for', () => {
    const ranked = [said(1, 0.9, 'assistant'), said(2, 0.6, 'user')];
    expect(preferSpeaker(ranked, null)).toBe(ranked);
  });
});

const PREVIEW = graphql(`
  query SpeakerPreview($input: RetrieveInput!) {
    retrievePreview(input: $input) {
      items {
        memory {
          id
        }
      }
      resolution {
        speaker
      }
    }
  }
`);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true } });
});
afterAll(() => app.close());

/**
 * What the user said, the assistant's answer that repeats more of a question's words, as a conversation import leaves
 * them, and a note that shares one word with them.
 */
async function conversation() {
  const apiKeyId = `spk-${randomUUID().slice(0, 8)}`;
  const turn = async (role: string, content: string) =>
    (await app.ok(CREATE_MEMORY, { input: { apiKeyId, sessionId: 's1', type: 'EPISODIC', content, metadata: { role } } })).createMemory.id;
  const user = await turn('user', 'I bought a yellow dress as a birthday gift for my sister.');
  const assistant = await turn('assistant', 'A birthday gift for a sister: a yellow dress is a lovely birthday gift for a sister.');
  const note = await turn('note', 'Birthday reminders are set for the first of each month.');
  return { apiKeyId, user, assistant, note };
}

describe('retrieval through the API', () => {
  it('puts what the user said first when they ask about themselves, and says why', async () => {
    const { apiKeyId, user, assistant, note } = await conversation();
    const r = (await app.ok(PREVIEW, { input: { apiKeyId, query: 'What birthday gift did I buy for my sister?', strategy: 'HYBRID' } }))
      .retrievePreview;
    expect(r.items.map((i) => i.memory.id)).toEqual([user, assistant, note]);
    expect(r.resolution.speaker).toBe('USER');
  });

  it('ranks by the words alone when the query asks about neither side', async () => {
    const { apiKeyId, user, assistant, note } = await conversation();
    const r = (await app.ok(PREVIEW, { input: { apiKeyId, query: 'a birthday gift for a sister', strategy: 'HYBRID' } })).retrievePreview;
    expect(r.items.map((i) => i.memory.id)).toEqual([assistant, user, note]);
    expect(r.resolution.speaker).toBeNull();
  });
});
