/**
 * The belief-update eval: each scripted conversation of eval/beliefUpdates.ts is replayed through the gateway's
 * extractFacts, one API key per conversation and a minute between messages, with captureTurns OFF so that the
 * memories are the facts alone; then its question is asked through injectMemory. Scored: which memories ended
 * superseded against those the script expects (precision, recall), which stayed current, and how many stale facts the
 * injected block carried. Needs no data set: it runs in a fresh clone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractAndStore, injectMemory } from '../server/gateway/gateway.service.ts';
import { createLogger } from '../server/logger.ts';
import { createServices, type Services } from '../server/services.ts';
import { BELIEF_CASES, type BeliefCase, isTrap } from './beliefUpdates.ts';
import { openEvalStore } from './store.ts';

export interface BeliefFailure {
  case: BeliefCase;
  /** What went wrong: a memory superseded that should hold, a stale one still current, an expected one missing. */
  why: string;
}

export interface BeliefReport {
  cases: number;
  traps: number;
  /** Memories that ended superseded, and of those the ones the script expects stale. */
  superseded: number;
  rightlySuperseded: number;
  /** Memories the script expects stale, and of those the ones that ended superseded with nothing current saying so. */
  expectedStale: number;
  foundStale: number;
  /** Memories the script expects current, and of those the ones that are. */
  expectedCurrent: number;
  foundCurrent: number;
  /** Stale facts in the blocks injected for the cases' questions, one question per case. */
  staleInjected: number;
  /** The same with each fact stored without superseding anything: what the rules keep out of the blocks. */
  staleInjectedWithout: number;
  /** Supersessions in force at the end, by rule. */
  byRule: Record<string, number>;
  failures: BeliefFailure[];
}

export const precisionOf = (r: BeliefReport) => (r.superseded === 0 ? 1 : r.rightlySuperseded / r.superseded);
export const recallOf = (r: BeliefReport) => (r.expectedStale === 0 ? 1 : r.foundStale / r.expectedStale);

/** A memory named by a part of its content: case and word boundaries count, so "Likes Python" is not "Dislikes Python". */
export function names(content: string, part: string): boolean {
  const escaped = part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(content);
}

const START = Date.UTC(2026, 0, 5, 9);
const MINUTE = 60_000;

/** Runs the set on a store of its own (a SQLite file in a temp folder, or a database on `postgresUrl`). */
export async function evaluateBeliefs(options: { postgresUrl?: string | null; cases?: readonly BeliefCase[] } = {}): Promise<BeliefReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-beliefs-'));
  const database = await openEvalStore(dir, options.postgresUrl ?? null);
  try {
    const services = createServices({ db: database.db, logger: createLogger('silent') });
    await services.settings.update({ enabled: true, captureTurns: 'OFF' });
    const cases = options.cases ?? BELIEF_CASES;
    const report = await replayCases(services, cases);
    report.staleInjectedWithout = (await replayCases({ ...services, supersedeFacts: false }, cases, 'belief-off')).staleInjected;
    return report;
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function replayCases(
  services: Services & { supersedeFacts?: boolean },
  cases: readonly BeliefCase[],
  keyPrefix = 'belief',
): Promise<BeliefReport> {
  const report: BeliefReport = {
    cases: cases.length,
    traps: cases.filter(isTrap).length,
    superseded: 0,
    rightlySuperseded: 0,
    expectedStale: 0,
    foundStale: 0,
    expectedCurrent: 0,
    foundCurrent: 0,
    staleInjected: 0,
    staleInjectedWithout: 0,
    byRule: {},
    failures: [],
  };
  for (const [i, c] of cases.entries()) {
    const apiKeyId = `${keyPrefix}-${i + 1}`;
    let now = START;
    for (const text of c.messages) {
      now += MINUTE;
      const at = now;
      await extractAndStore({ ...services, now: () => at }, { apiKeyId, sessionId: apiKeyId, text, role: 'user' });
    }
    const rows = await services.db
      .selectFrom('memories')
      .select(['id', 'content', 'valid_to'])
      .where('api_key_id', '=', apiKeyId)
      .execute();
    const current = rows.filter((r) => r.valid_to === null);
    const superseded = rows.filter((r) => r.valid_to !== null);
    const fail = (why: string) => report.failures.push({ case: c, why });
    for (const r of superseded) {
      report.superseded++;
      if (c.stale.some((part) => names(r.content, part))) report.rightlySuperseded++;
      else fail(`"${r.content}" superseded`);
    }
    for (const part of c.stale) {
      report.expectedStale++;
      if (current.some((r) => names(r.content, part))) fail(`"${part}" still current`);
      else if (!superseded.some((r) => names(r.content, part))) fail(`"${part}" never stored`);
      else report.foundStale++;
    }
    for (const part of c.current) {
      report.expectedCurrent++;
      if (current.some((r) => names(r.content, part))) report.foundCurrent++;
      else fail(`"${part}" not current`);
    }
    const records = await services.db
      .selectFrom('supersessions')
      .select('rule')
      .where('api_key_id', '=', apiKeyId)
      .where('undone_at', 'is', null)
      .execute();
    for (const { rule } of records) report.byRule[rule] = (report.byRule[rule] ?? 0) + 1;
    const asked = await injectMemory(
      { ...services, now: () => now + MINUTE },
      { apiKeyId, provider: 'openai', request: { messages: [{ role: 'user', content: c.question }] } },
    );
    const block = asked.retrieval?.items ?? [];
    report.staleInjected += block.filter((item) => c.stale.some((part) => names(item.memory.content, part))).length;
  }
  return report;
}

/** The report as Markdown: the figures, each rule's supersessions, and every case that went wrong. */
export function formatBeliefReport(r: BeliefReport): string {
  const share = (n: number, of: number) => `${n}/${of}`;
  const perQuery = (n: number) => `${(n / Math.max(1, r.cases)).toFixed(3)} (${n} in ${r.cases} blocks)`;
  const lines = [
    `Belief updates: ${r.cases} scripted conversations (${r.traps} traps), replayed through extractFacts with captureTurns OFF`,
    '',
    '| supersession precision | recall | current facts held | stale facts injected per query | without supersession |',
    '|---:|---:|---:|---:|---:|',
    `| ${precisionOf(r).toFixed(3)} (${share(r.rightlySuperseded, r.superseded)}) | ${recallOf(r).toFixed(3)} (${share(r.foundStale, r.expectedStale)}) | ` +
      `${share(r.foundCurrent, r.expectedCurrent)} | ${perQuery(r.staleInjected)} | ${perQuery(r.staleInjectedWithout)} |`,
    '',
    `supersessions by rule: ${
      Object.entries(r.byRule)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([rule, n]) => `${rule} ${n}`)
        .join(', ') || 'none'
    }`,
  ];
  if (r.failures.length > 0) {
    lines.push('', 'wrong:');
    for (const f of r.failures) lines.push(`- [${f.case.kind}] ${f.case.messages.join(' / ')}: ${f.why}`);
  }
  return `${lines.join('\n')}\n`;
}
