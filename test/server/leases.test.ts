import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEASE_MS, Leases } from '../../server/jobs/lease.ts';
import { createLogger } from '../../server/logger.ts';
import { testClock } from '../helpers/clock.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

// Two processes sharing one database, as two Leases with their own owner ids on one store and one clock that the
// tests move past a lease's expiry instead of waiting for it.
let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t.close());

function twoProcesses() {
  const clock = testClock();
  const deps = { db: t.database.db, now: clock.now, logger: createLogger('silent') };
  return { clock, a: new Leases(deps, 'host:1:aaaa'), b: new Leases(deps, 'host:2:bbbb') };
}

describe('leases on background duties', () => {
  it('are taken by the first process that asks for a free duty', async () => {
    const { a } = twoProcesses();
    expect(await a.hold('purge')).toBe(true);
    await a.release();
  });

  it('are refused to another process while the holder keeps them', async () => {
    const { a, b } = twoProcesses();
    await a.hold('auto-summarize');
    expect(await b.hold('auto-summarize')).toBe(false);
    await a.release();
  });

  it('stay with their holder when it renews them, past the first expiry', async () => {
    const { a, b, clock } = twoProcesses();
    await a.hold('audit-retention');
    clock.skip((LEASE_MS * 2) / 3);
    expect(await a.hold('audit-retention')).toBe(true);
    // Past the first expiry, before the renewed one.
    clock.skip((LEASE_MS * 2) / 3);
    expect(await b.hold('audit-retention')).toBe(false);
    await a.release();
  });

  it('are taken over by another process once the holder let them expire, and lost to it', async () => {
    const { a, b, clock } = twoProcesses();
    await a.hold('embedding-worker');
    clock.skip(LEASE_MS + 1);
    expect(await b.hold('embedding-worker')).toBe(true);
    expect(await a.hold('embedding-worker')).toBe(false);
    await b.release();
  });

  it('are free for another process at once when the holder releases them', async () => {
    const { a, b } = twoProcesses();
    await a.hold('purge');
    await a.release();
    expect(await b.hold('purge')).toBe(true);
    await b.release();
  });

  it('run a duty only in the process that holds it', async () => {
    const { a, b } = twoProcesses();
    const ran: string[] = [];
    await a.whenHeld('purge', async () => ran.push('a'));
    await b.whenHeld('purge', async () => ran.push('b'));
    expect(ran).toEqual(['a']);
    await a.release();
  });

  it('start no pass whose claim answers after the process released its leases (it is shutting down)', async () => {
    const { a } = twoProcesses();
    let started = false;
    const claim = a.whenHeld('purge', async () => {
      started = true;
    });
    await a.release();
    expect(await claim).toBeNull();
    expect(started).toBe(false);
  });

  it('are kept, on release, until the passes in flight have ended', async () => {
    const { a, b } = twoProcesses();
    let finish: (() => void) | undefined;
    const pass = a.whenHeld('purge', () => new Promise<void>((resolve) => (finish = resolve)));
    await vi.waitFor(() => expect(finish).toBeDefined());
    let released = false;
    const releasing = a.release().then(() => (released = true));
    expect(await b.hold('purge')).toBe(false);
    expect(released).toBe(false);
    finish!();
    await pass;
    await releasing;
    expect(await b.hold('purge')).toBe(true);
    await b.release();
  });
});
