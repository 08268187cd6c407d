import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { EXTRACT_FACTS, UPDATE_SETTINGS } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(UPDATE_SETTINGS, { input: { enabled: true, captureTurns: 'OFF' } });
});
afterAll(() => app.close());

const EVERY_FACT = graphql(`
  query EveryFact($apiKeyId: String!) {
    memories(apiKeyId: $apiKeyId, includeSuperseded: true, limit: 100) {
      items {
        id
        key
        content
        validTo
        supersededBy
        supersession {
          rule
          sentence
        }
      }
    }
  }
`);

const INJECT = graphql(`
  mutation InjectAfterChange($input: InjectMemoryInput!) {
    injectMemory(input: $input) {
      retrieval {
        items {
          content
        }
      }
    }
  }
`);

const RESTORE = graphql(`
  mutation RestoreFact($id: ID!) {
    restoreMemory(id: $id) {
      id
      validTo
    }
  }
`);

/** The user's messages, in order, through extractFacts. */
async function say(apiKeyId: string, ...messages: string[]) {
  for (const text of messages) {
    const { extractFacts } = await app.ok(EXTRACT_FACTS, { input: { apiKeyId, role: 'USER', text } });
    expect(extractFacts.error).toBeNull();
  }
}

async function facts(apiKeyId: string) {
  const { items } = (await app.ok(EVERY_FACT, { apiKeyId })).memories;
  return {
    current: items.filter((m) => m.validTo === null).map((m) => m.content),
    superseded: items.filter((m) => m.validTo !== null),
    all: items,
  };
}

async function injected(apiKeyId: string, question: string) {
  const { injectMemory } = await app.ok(INJECT, {
    input: { retrieval: { apiKeyId }, provider: 'openai', request: { messages: [{ role: 'user', content: question }] } },
  });
  return (injectMemory.retrieval?.items ?? []).map((i) => i.content);
}

describe("the issue's examples through extractFacts", () => {
  it('a move leaves only the new place current, the old one superseded with its rule and sentence', async () => {
    await say('fs-move', 'I live in Lyon.', 'I moved to Berlin last month.');
    const { current, superseded } = await facts('fs-move');
    expect(current).toEqual(['Lives in Berlin']);
    expect(superseded).toMatchObject([
      {
        content: 'Lives in Lyon',
        key: 'identity:location',
        supersession: { rule: 'single_value', sentence: 'I moved to Berlin last month.' },
      },
    ]);
    expect(await injected('fs-move', 'Where do I live?')).toEqual(['Lives in Berlin']);
  });

  it('a switch of editor supersedes the one used before', async () => {
    await say('fs-switch', 'I use Vim.', 'I switched from Vim to Helix.');
    const { current, superseded } = await facts('fs-switch');
    expect(current).toEqual(['Switched from Vim to Helix']);
    expect(superseded).toMatchObject([{ content: 'Uses Vim', supersession: { rule: 'explicit_change' } }]);
    expect(await injected('fs-switch', 'Which editor do I use, Vim or Helix?')).toEqual(['Switched from Vim to Helix']);
  });

  it('a second decision of the database supersedes the first', async () => {
    await say('fs-db', 'We decided to use PostgreSQL for this project.', 'Actually we decided to use MySQL for this project instead.');
    const { current, superseded } = await facts('fs-db');
    expect(current).toEqual(['Decided to use MySQL for this project']);
    expect(superseded).toMatchObject([{ content: 'Decided to use PostgreSQL for this project', supersession: { rule: 'decision' } }]);
    expect(await injected('fs-db', 'Which database for this project?')).toEqual(['Decided to use MySQL for this project']);
  });

  it('a switch said in the same message as the use it ends supersedes it', async () => {
    await say('fs-one-message', 'I use Vim. I switched from Vim to Helix.');
    const { current, superseded } = await facts('fs-one-message');
    expect(current).toEqual(['Switched from Vim to Helix']);
    expect(superseded).toMatchObject([{ content: 'Uses Vim', supersession: { rule: 'explicit_change' } }]);
  });

  it('a switch ends every use of the old tool at once, each with its own record', async () => {
    await say('fs-every-use', 'I use Vim for notes.', 'I use Vim for code.', 'I switched from Vim to Helix.');
    const { current, superseded } = await facts('fs-every-use');
    expect(current).toEqual(['Switched from Vim to Helix']);
    expect(superseded.map((m) => [m.content, m.supersession?.rule]).sort()).toEqual([
      ['Uses Vim for code', 'explicit_change'],
      ['Uses Vim for notes', 'explicit_change'],
    ]);
  });

  it('a reversed preference supersedes the one it reverses', async () => {
    await say('fs-tabs', 'I prefer tabs over spaces.', 'I prefer spaces over tabs.');
    const { current, superseded } = await facts('fs-tabs');
    expect(current).toEqual(['Prefers spaces over tabs']);
    expect(superseded).toMatchObject([{ content: 'Prefers tabs over spaces', supersession: { rule: 'preference_reversal' } }]);
  });

  it('the other polarity of the same key keeps the old memory, superseded, instead of writing over it', async () => {
    await say('fs-python', 'I like Python.', "I don't like Python anymore.");
    const { current, superseded } = await facts('fs-python');
    expect(current).toEqual(['Dislikes Python']);
    expect(superseded).toMatchObject([{ content: 'Likes Python', key: 'pref:python', supersession: { rule: 'polarity' } }]);
  });
});

describe('keys and order', () => {
  it('gives each new value of a slot the next version of its key, and restates into the current one', async () => {
    await say('fs-back', 'I live in Lyon.', 'I moved to Berlin.', 'I moved back to Lyon.', "I'm based in Lyon.");
    const { current, all } = await facts('fs-back');
    expect(current).toEqual(['Based in Lyon']);
    expect(all.map((m) => [m.key, m.validTo === null]).sort()).toEqual([
      ['identity:location', false],
      ['identity:location~v2', false],
      ['identity:location~v3', true],
    ]);
  });

  it('numbers a key past its superseded versions when a message holds more than one fact', async () => {
    await say('fs-py', 'I like Python.', "I don't like Python anymore.", 'I like Python again.', 'I changed my mind about Python.');
    await say('fs-py', 'I like Python. I live in Paris.');
    const { all } = await facts('fs-py');
    expect(all.map((m) => [m.key, m.content, m.validTo === null]).sort()).toEqual([
      ['changed-mind:python', 'Changed their mind about Python', true],
      ['identity:location', 'Lives in Paris', true],
      ['pref:python', 'Likes Python', false],
      ['pref:python~v2', 'Dislikes Python', false],
      ['pref:python~v3', 'Likes Python', false],
      ['pref:python~v4', 'Likes Python', true],
    ]);
  });

  it('a fact said again in the same words after it was superseded holds again, as a new memory', async () => {
    await say('fs-again', 'I live in Lyon.', 'I moved to Berlin.', 'I live in Lyon.');
    const { current, superseded } = await facts('fs-again');
    expect(current).toEqual(['Lives in Lyon']);
    expect(superseded.map((m) => m.content).sort()).toEqual(['Lives in Berlin', 'Lives in Lyon']);
  });

  it('stores a statement said before the one that contradicts it (a replay out of order) as already superseded', async () => {
    const input = (text: string, occurredAt: string) => ({ apiKeyId: 'fs-order', role: 'USER' as const, text, occurredAt });
    await app.ok(EXTRACT_FACTS, { input: input('I moved to Berlin.', '2026-03-01T10:00:00Z') });
    await app.ok(EXTRACT_FACTS, { input: input('I live in Lyon.', '2026-01-01T10:00:00Z') });
    const { current, superseded } = await facts('fs-order');
    expect(current).toEqual(['Lives in Berlin']);
    expect(superseded).toMatchObject([{ content: 'Lives in Lyon', validTo: '2026-03-01T10:00:00.000Z' }]);
  });

  it('is undone by restoreMemory: the old fact holds again beside the new one', async () => {
    await say('fs-undo', 'I use Vim.', "I've switched to Helix.");
    const [old] = (await facts('fs-undo')).superseded;
    await app.ok(RESTORE, { id: old!.id });
    expect((await facts('fs-undo')).current.sort()).toEqual(['Switched to Helix', 'Uses Vim']);
  });
});

describe('what never supersedes', () => {
  it.each([
    ['someone else', ['I live in Berlin.', 'My sister lives in Lyon.', 'My sister moved to Lyon.']],
    ['another object', ['I like Python.', 'I like Rust.']],
    ['a supposition', ['I live in Lyon.', 'If I moved to Berlin, would my rent go up?']],
    ['a question', ['I use Vim.', 'Should I switch to Helix?']],
    ['a quotation', ['I use Vim.', 'My coworker said "I switched to Emacs" at lunch.']],
    ['a decision of another choice', ["We'll use PostgreSQL for the API.", "We'll use Redis for caching."]],
  ])('%s', async (_, messages) => {
    const apiKeyId = `fs-trap-${messages.length}-${messages[1]!.length}`;
    await say(apiKeyId, ...messages);
    expect((await facts(apiKeyId)).superseded).toEqual([]);
  });

  it("another API key's change", async () => {
    await say('fs-tenant-a', 'I live in Lyon.');
    await say('fs-tenant-b', 'I moved to Berlin.');
    expect((await facts('fs-tenant-a')).current).toEqual(['Lives in Lyon']);
  });
});
