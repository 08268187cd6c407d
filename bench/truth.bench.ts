/**
 * What the truth checks of the write path cost: `createMemory` (in-process) and `extractAndStore` on one key of 10k
 * facts with the checks ON and OFF, alternating in blocks on the same database, and keyword `retrieve` before and after
 * the writes. ON is a server's default: paraphrase merging (mergeParaphrases) and, for extracted facts, supersession.
 * OFF: mergeParaphrases false, and extraction's facts stored without asking what they supersede (storeFacts'
 * supersedeFacts false, the switch the belief eval measures supersession with; createMemory supersedes only what its
 * caller names, so it has no supersession to switch off).
 */

import { extractFacts } from '../server/gateway/extraction.ts';
import { extractAndStore, type GatewayDeps } from '../server/gateway/gateway.service.ts';
import type { FactDeps } from '../server/gateway/storeFacts.ts';
import { createMemory } from '../server/memory/memory.service.ts';
import { retrieve } from '../server/retrieval/retrieval.service.ts';
import { openBenchDb } from './lib/benchDb.ts';
import { benchStoreKind } from './lib/benchStore.ts';
import { factMessage, factStatement } from './lib/facts.ts';
import { keywordPostingsBuilt } from './lib/keywordPostings.ts';
import { loadLine } from './lib/machine.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, sampleLatency, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, printTable, type Table } from './lib/table.ts';
import { rng } from './lib/text.ts';

type Arm = 'OFF' | 'ON';
const ARMS: readonly Arm[] = ['OFF', 'ON'];
/** The target: the checks cost at most this much per write (p50, ON over OFF). */
const TARGET_RATIO = 1.3;

export interface TruthOptions {
  /** Facts of the one key before anything is timed. */
  memories: number;
  /** First-person statements per extractAndStore message. */
  statements: number;
  /** Timed calls per operation and arm, in blocks of `block`, OFF and ON taking turns. */
  iterations: number;
  block: number;
  /** Untimed calls of each operation and arm first. */
  warmup: number;
  /** Keyword retrievals timed before the writes and after them. */
  retrievals: number;
}

export interface TruthResult {
  latency: Record<'createMemory' | 'extractAndStore', Record<Arm, LatencySummary>>;
  /**
   * This process's CPU time per call (user and system), the same calls: on a shared machine a call also waits for a
   * core, which the wall time counts and this does not. On PostgreSQL the server's share is not in it.
   */
  cpu: Record<'createMemory' | 'extractAndStore', Record<Arm, LatencySummary>>;
  /**
   * extractAndStore ON over the calls that superseded nothing: the lookups' cost without the writes a supersession
   * adds (the old memory marked, its version, the record, the audit entry).
   */
  quietExtract: LatencySummary;
  /** Keyword retrieve (HYBRID without a model), before the timed writes and after them. */
  retrieve: { before: LatencySummary; after: LatencySummary };
  /** What the ON arm's writes came to: merged into a paraphrase, and facts that superseded another. */
  merged: number;
  superseded: number;
  written: Record<Arm, number>;
}

/** A fact as extraction stores it, from a generated statement: its key, wording, type and polarity. */
function seededFact(random: () => number) {
  for (;;) {
    const [fact] = extractFacts(factStatement(random), { role: 'user', includeAssistant: false, knownSecrets: [] });
    if (fact === undefined) continue;
    const metadata = JSON.stringify({ source: 'extraction', category: fact.category, polarity: fact.polarity, role: 'user' });
    return { key: fact.key, content: fact.content, type: fact.type, metadata };
  }
}

/** Questions about the facts' objects, as a user asks them. */
function questions(seed: number): () => string {
  const random = rng(seed);
  return () => {
    const [fact] = extractFacts(factStatement(random), { role: 'user', includeAssistant: false, knownSecrets: [] });
    return `What do you know about ${fact?.content.toLowerCase() ?? 'my preferences'}?`;
  };
}

export async function benchTruth(o: TruthOptions): Promise<TruthResult> {
  const db = await openBenchDb();
  try {
    await db.services.settings.update({ enabled: true, captureTurns: 'OFF' });
    await seedMemories(db.database, { count: o.memories, apiKeys: 1, seed: 2806, said: seededFact });
    await analyzeLikeAServer(db.database);
    const apiKeyId = apiKeyName(0);
    // New statements every call, from the seeded facts' vocabulary: some restate a stored fact, some replace one.
    const random = rng(2807);
    const deps: Record<Arm, GatewayDeps & FactDeps> = { OFF: { ...db.services, supersedeFacts: false }, ON: db.services };
    const counts = { merged: 0, written: { OFF: 0, ON: 0 } };
    const create = (arm: Arm) => async () => {
      const [fact] = extractFacts(factStatement(random), { role: 'user', includeAssistant: false, knownSecrets: [] });
      const m = await createMemory(deps[arm], { apiKeyId, type: 'factual', content: fact?.content ?? 'Likes quiet mornings' });
      counts.written[arm]++;
      if (m.outcome === 'merged' && arm === 'ON') counts.merged++;
    };
    const extract = (arm: Arm) => async () => {
      const out = await extractAndStore(deps[arm], { apiKeyId, text: factMessage(random, o.statements), role: 'user' });
      if (out.error) throw new Error(out.error);
      counts.written[arm] += out.memories.length;
    };
    const quiet: number[] = [];
    const ask = questions(2808);
    const keyword = () => retrieve(db.services, { apiKeyId, query: ask(), strategy: 'HYBRID' }, { record: true });
    const retrievals = { iterations: o.retrievals, warmup: 20 };
    // Each sample once the key's keyword postings are in memory, as a server up a while has them: the writes between
    // the samples are more than a search catches up on, so the key's are built anew after them.
    await keywordPostingsBuilt(db, apiKeyId);
    const before = await sampleLatency(keyword, retrievals);

    const arms = () => ({ OFF: [] as number[], ON: [] as number[] });
    const samples = { createMemory: arms(), extractAndStore: arms() };
    const cpu = { createMemory: arms(), extractAndStore: arms() };
    const ops = { createMemory: create, extractAndStore: extract } as const;
    const arm = (a: Arm) => db.services.settings.update({ mergeParaphrases: a === 'ON' });
    const supersededBefore = await supersessions(db);
    for (const a of ARMS) {
      await arm(a);
      for (let i = 0; i < o.warmup; i++) for (const op of Object.values(ops)) await op(a)();
    }
    for (let done = 0; done < o.iterations; done += o.block) {
      for (const a of ARMS) {
        await arm(a);
        for (let i = 0; i < Math.min(o.block, o.iterations - done); i++) {
          for (const [name, op] of Object.entries(ops) as [keyof typeof ops, (typeof ops)[keyof typeof ops]][]) {
            const superseded = name === 'extractAndStore' && a === 'ON' ? await supersessions(db) : null;
            const c0 = process.cpuUsage();
            const t0 = performance.now();
            await op(a)();
            const ms = performance.now() - t0;
            samples[name][a].push(ms);
            const c = process.cpuUsage(c0);
            cpu[name][a].push((c.user + c.system) / 1000);
            if (superseded !== null && (await supersessions(db)) === superseded) quiet.push(ms);
          }
        }
      }
    }
    await arm('ON');
    await keyword();
    await keywordPostingsBuilt(db, apiKeyId);
    const after = await sampleLatency(keyword, retrievals);
    const summaries = (s: Record<Arm, number[]>) => ({ OFF: summarize(s.OFF), ON: summarize(s.ON) });
    return {
      latency: { createMemory: summaries(samples.createMemory), extractAndStore: summaries(samples.extractAndStore) },
      cpu: { createMemory: summaries(cpu.createMemory), extractAndStore: summaries(cpu.extractAndStore) },
      quietExtract: summarize(quiet),
      retrieve: { before: summarize(before), after: summarize(after) },
      merged: counts.merged,
      superseded: (await supersessions(db)) - supersededBefore,
      written: counts.written,
    };
  } finally {
    await db.close();
  }
}

async function supersessions(db: Awaited<ReturnType<typeof openBenchDb>>): Promise<number> {
  const row = await db.database.db
    .selectFrom('supersessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function truthTable(r: TruthResult, o: TruthOptions): Table {
  const ops = ['createMemory', 'extractAndStore'] as const;
  const ratio = (op: (typeof ops)[number]) => r.latency[op].ON.p50 / r.latency[op].OFF.p50;
  const what = {
    createMemory: 'createMemory (in-process), one fact',
    extractAndStore: `extractAndStore, a message of ${o.statements} statements`,
  };
  const cpuRatio = (op: (typeof ops)[number]) => r.cpu[op].ON.p50 / r.cpu[op].OFF.p50;
  const row = (label: string, s: LatencySummary) => [label, fmtMs(s.p50), fmtMs(s.p95), '', '', '', '', `${s.n}`];
  return {
    title: `truth checks per write, ms (one key of ${fmtInt(o.memories)} facts, ${benchStoreKind()}; checks OFF and ON alternating in blocks of ${o.block})`,
    columns: [
      { header: 'operation', align: 'left' },
      { header: 'OFF p50' },
      { header: 'OFF p95' },
      { header: 'ON p50' },
      { header: 'ON p95' },
      { header: 'ON/OFF p50' },
      { header: 'CPU ON/OFF p50' },
      { header: 'n' },
    ],
    rows: [
      ...ops.map((op) => [
        what[op],
        fmtMs(r.latency[op].OFF.p50),
        fmtMs(r.latency[op].OFF.p95),
        fmtMs(r.latency[op].ON.p50),
        fmtMs(r.latency[op].ON.p95),
        `${ratio(op).toFixed(2)}x`,
        `${cpuRatio(op).toFixed(2)}x (${fmtMs(r.cpu[op].OFF.p50)} / ${fmtMs(r.cpu[op].ON.p50)})`,
        `${r.latency[op].OFF.n}+${r.latency[op].ON.n}`,
      ]),
      [
        'extractAndStore ON, the calls that superseded nothing',
        '',
        '',
        fmtMs(r.quietExtract.p50),
        fmtMs(r.quietExtract.p95),
        `${(r.quietExtract.p50 / r.latency.extractAndStore.OFF.p50).toFixed(2)}x`,
        '',
        `${r.quietExtract.n}`,
      ],
      row('keyword retrieve, before the writes (p50, p95)', r.retrieve.before),
      row('keyword retrieve, after the writes (p50, p95)', r.retrieve.after),
    ],
    notes: [
      ...ops.map(
        (op) =>
          `target: ${op} with the checks on within ${TARGET_RATIO}x of off (p50): ${ratio(op).toFixed(2)}x, ${ratio(op) <= TARGET_RATIO ? 'MET' : 'MISSED'}.`,
      ),
      `CPU: this process's time per call (${benchStoreKind() === 'postgres' ? "the client's share only: the server's is in PostgreSQL" : 'all of it, SQLite being in-process'}), ms.`,
      `ON merged ${fmtInt(r.merged)} createMemory calls into a paraphrase and recorded ${fmtInt(r.superseded)} supersessions;`,
      `memories written OFF / ON: ${fmtInt(r.written.OFF)} / ${fmtInt(r.written.ON)} (warm-up included). load ${loadLine()}`,
    ],
  };
}

const TRUTH_SIZES: Record<'quick' | 'full', TruthOptions> = {
  quick: { memories: 1000, statements: 3, iterations: 60, block: 20, warmup: 5, retrievals: 50 },
  full: { memories: 10_000, statements: 3, iterations: 400, block: 50, warmup: 20, retrievals: 300 },
};

export const sections: BenchSection[] = [
  {
    name: 'truth',
    group: 'store',
    description: 'createMemory and extractAndStore with the truth checks on vs off at 10k facts; keyword retrieve around them',
    stores: ['sqlite', 'postgres'],
    run: async ({ quick }) => {
      const o = TRUTH_SIZES[quick ? 'quick' : 'full'];
      printTable(truthTable(await benchTruth(o), o));
    },
  },
];
