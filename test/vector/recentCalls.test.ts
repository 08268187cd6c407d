import { describe, expect, it } from 'vitest';
import { CallRecord, RECENT_WINDOW_MS } from '../../server/vector/recentCalls.ts';

describe('CallRecord', () => {
  const start = Date.UTC(2026, 11, 2, 10, 0, 0);

  it('counts calls and failures in the window, and keeps the last failure after later successes', async () => {
    const clock = { now: start };
    const record = new CallRecord(() => clock.now);
    await record.track(async () => 1);
    await expect(record.track(async () => Promise.reject(new Error('ECONNREFUSED')))).rejects.toThrow('ECONNREFUSED');
    clock.now += 1000;
    await record.track(async () => 2);
    expect(record.snapshot()).toEqual({
      windowMs: RECENT_WINDOW_MS,
      calls: 3,
      failures: 1,
      lastError: 'ECONNREFUSED',
      lastErrorAt: new Date(start),
      lastSuccessAt: new Date(start + 1000),
    });
  });

  it('forgets counts older than the window, but still names the last failure', () => {
    const clock = { now: start };
    const record = new CallRecord(() => clock.now);
    record.record(new Error('timeout'));
    clock.now += RECENT_WINDOW_MS + 60_000;
    record.record(null);
    expect(record.snapshot()).toMatchObject({ calls: 1, failures: 0, lastError: 'timeout', lastErrorAt: new Date(start) });
  });
});
