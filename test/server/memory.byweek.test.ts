import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, type VariablesOf } from '../helpers/graphql.ts';
import { IMPORT_MEMORIES, type MemoryInput } from '../helpers/operations.ts';
import { startTestApp, type TestApp } from '../helpers/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const importRows = (memories: MemoryInput[]) => app.ok(IMPORT_MEMORIES, { memories }).then((d) => d.importMemories);

const STATS = graphql(`
  query MemoryByweekStats($apiKeyId: String, $type: MemoryType, $search: String, $includeExpired: Boolean) {
    memories(apiKeyId: $apiKeyId, type: $type, search: $search, includeExpired: $includeExpired, limit: 1) {
      stats {
        totalEntries
        byWeek {
          weekStart
          count
        }
      }
    }
  }
`);

const stats = (vars: VariablesOf<typeof STATS>) => app.ok(STATS, vars).then((d) => d.memories.stats);

describe('memories per week', () => {
  const key = 'weeks';
  beforeAll(async () => {
    // 2026-03-02 is a Monday. Old dates, so the retention window would hide them: the queries ask for includeExpired.
    const report = await importRows([
      { apiKeyId: key, key: 'sun-late', type: 'FACTUAL', content: 'last minute of a Sunday', createdAt: '2026-03-01T23:59:59.999Z' },
      { apiKeyId: key, key: 'mon-start', type: 'FACTUAL', content: 'first instant of a Monday', createdAt: '2026-03-02T00:00:00Z' },
      { apiKeyId: key, key: 'wed', type: 'EPISODIC', content: 'a Wednesday', createdAt: '2026-03-04T12:00:00Z' },
      { apiKeyId: key, key: 'sun', type: 'FACTUAL', content: 'the Sunday that ends the week', createdAt: '2026-03-08T20:00:00Z' },
      // Two weeks later, with an empty week in between; a time zone offset is converted to UTC first.
      {
        apiKeyId: key,
        key: 'offset',
        type: 'EPISODIC',
        content: 'Monday in UTC, Sunday evening in New York',
        createdAt: '2026-03-22T21:30:00-05:00',
      },
      { apiKeyId: key, key: 'y2k', type: 'FACTUAL', content: 'a Saturday in 2000', createdAt: '2000-01-01T10:00:00Z' },
      // The earliest date a memory may carry is 1970-01-01, a Thursday: its week starts before the epoch.
      { apiKeyId: key, key: 'epoch', type: 'FACTUAL', content: 'the first Thursday of 1970', createdAt: '1970-01-01T10:00:00Z' },
    ]);
    expect(report).toEqual({ imported: 7, updated: 0, rejected: [] });
  });

  it('counts memories per ISO week starting on Monday 00:00 UTC, oldest first, leaving empty weeks out', async () => {
    const s = await stats({ apiKeyId: key, includeExpired: true });
    expect(s.byWeek).toEqual([
      { weekStart: '1969-12-29T00:00:00.000Z', count: 1 },
      { weekStart: '1999-12-27T00:00:00.000Z', count: 1 },
      { weekStart: '2026-02-23T00:00:00.000Z', count: 1 },
      { weekStart: '2026-03-02T00:00:00.000Z', count: 3 },
      { weekStart: '2026-03-23T00:00:00.000Z', count: 1 },
    ]);
    expect(s.byWeek.reduce((n, w) => n + w.count, 0)).toBe(s.totalEntries);
  });

  it('applies the same filters as the list', async () => {
    expect((await stats({ apiKeyId: key, type: 'EPISODIC', includeExpired: true })).byWeek).toEqual([
      { weekStart: '2026-03-02T00:00:00.000Z', count: 1 },
      { weekStart: '2026-03-23T00:00:00.000Z', count: 1 },
    ]);
    expect((await stats({ apiKeyId: key, search: 'sunday', includeExpired: true })).byWeek).toEqual([
      { weekStart: '2026-02-23T00:00:00.000Z', count: 1 },
      { weekStart: '2026-03-02T00:00:00.000Z', count: 1 },
      { weekStart: '2026-03-23T00:00:00.000Z', count: 1 },
    ]);
  });

  it('leaves out memories outside the retention window unless asked for', async () => {
    await importRows([{ apiKeyId: key, key: 'today', content: 'written just now' }]);
    const s = await stats({ apiKeyId: key });
    expect(s.totalEntries).toBe(1);
    expect(s.byWeek).toHaveLength(1);
    const monday = new Date(s.byWeek[0]!.weekStart);
    expect(monday.getUTCDay()).toBe(1);
    expect(monday.getUTCHours() + monday.getUTCMinutes() + monday.getUTCSeconds()).toBe(0);
    expect(Date.now() - monday.getTime()).toBeLessThan(7 * 86_400_000);
    expect(s.byWeek[0]!.count).toBe(1);
  });

  it('is empty for a key without memories and for a search without searchable words', async () => {
    expect((await stats({ apiKeyId: 'weeks-nobody' })).byWeek).toEqual([]);
    expect((await stats({ apiKeyId: key, search: '🙂', includeExpired: true })).byWeek).toEqual([]);
  });
});
