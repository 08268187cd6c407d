import { beforeAll, describe, expect, it } from 'vitest';
import { type BeliefReport, evaluateBeliefs, formatBeliefReport, names, precisionOf, recallOf } from '../../eval/beliefs.ts';
import { BELIEF_CASES, isTrap } from '../../eval/beliefUpdates.ts';

let report: BeliefReport;
beforeAll(async () => {
  report = await evaluateBeliefs();
}, 300_000);

describe('the belief-update set', () => {
  it('holds at least 100 scripted conversations, 30 of them traps', () => {
    expect(BELIEF_CASES.length).toBeGreaterThanOrEqual(100);
    expect(BELIEF_CASES.filter(isTrap).length).toBeGreaterThanOrEqual(30);
  });

  it('expects nothing stale of a trap, and something stale of every change', () => {
    for (const c of BELIEF_CASES) expect(c.stale.length === 0, c.messages.join(' / ')).toBe(isTrap(c));
  });
});

describe('supersession through extractFacts on the belief-update set', () => {
  it('supersedes with precision of at least 0.98', () => {
    expect(precisionOf(report), formatBeliefReport(report)).toBeGreaterThanOrEqual(0.98);
  });

  it('supersedes with recall of at least 0.90', () => {
    expect(recallOf(report), formatBeliefReport(report)).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps every fact the scripts expect current', () => {
    expect(report.foundCurrent, formatBeliefReport(report)).toBe(report.expectedCurrent);
  });

  it('injects fewer stale facts than storing without supersession does', () => {
    expect(report.staleInjected).toBeLessThan(report.staleInjectedWithout);
  });
});

describe('naming a memory by part of its content', () => {
  it('counts case and word boundaries, so one fact is not taken for its negation', () => {
    expect(names('Dislikes Python', 'Likes Python')).toBe(false);
    expect(names('No longer works at Acme', 'Works at Acme')).toBe(false);
    expect(names('Name is Joanna', 'Name is Jo')).toBe(false);
    expect(names('Decided to use MySQL for this project', 'MySQL for this project')).toBe(true);
  });
});
