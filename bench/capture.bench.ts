/**
 * What turn capture (the captureTurns setting) costs the gateway: `extractAndStore` and `injectMemory` per request
 * with capture OFF and USER, on one key of 10k memories, and how much the database grows per 1,000 captured turns.
 * OFF and USER alternate in blocks on the same database, so a slow spell of a shared machine and the key's growth
 * fall on both alike.
 */

import { sql } from 'kysely';
import { storeDialect } from '../server/db/storeDialect.ts';
import { extractAndStore, injectMemory } from '../server/gateway/gateway.service.ts';
import type { Settings } from '../server/settings/settings.service.ts';
import { type BenchDb, openBenchDb } from './lib/benchDb.ts';
import { benchStoreKind } from './lib/benchStore.ts';
import { loadLine } from './lib/machine.ts';
import { chatRequest, chatText, questionStream } from './lib/queries.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { type LatencySummary, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, printTable, type Table } from './lib/table.ts';

type Mode = Extract<Settings['captureTurns'], 'OFF' | 'USER'>;
const MODES: readonly Mode[] = ['OFF', 'USER'];
/** The issue's target: capture on costs at most this much per request (p50, USER over OFF). */
const TARGET_RATIO = 1.3;

export interface CaptureOptions {
  /** Memories of the one key before anything is timed. */
  memories: number;
  /** Messages of the chat request given to injectMemory. */
  messages: number;
  /** Characters of the user message given to extractAndStore (a chat message of a few sentences). */
  messageChars: number;
  /** Timed requests per mode, in blocks of `block`, OFF and USER taking turns. */
  iterations: number;
  block: number;
  /** Untimed requests of each mode first (statement and page caches, the conversation's history captured once). */
  warmup: number;
  /** Messages captured for the growth figure, in chunks of `block`, OFF and USER taking turns. */
  growthTurns: number;
}

interface Growth {
  bytes: number;
  messages: number;
  captured: number;
  /** PostgreSQL only: the growth of each table, its indexes and TOAST included. */
  tables: Map<string, number>;
}

export interface CaptureResult {
  /** Per-request milliseconds by operation and mode. */
  latency: Record<'extractAndStore' | 'injectMemory', Record<Mode, LatencySummary>>;
  growth: Record<Mode, Growth>;
  messageBytes: number;
  requestBytes: number;
}

/**
 * Store growth measured as the store reports its size (db/<store>/storeSize.ts): SQLite's file plus its write-ahead
 * log after a checkpoint, PostgreSQL's pg_database_size. Checkpointing first makes each figure what the file holds,
 * not what the log happens to keep.
 */
async function storeBytes(db: BenchDb): Promise<number> {
  const dialect = storeDialect(db.database.db);
  await dialect.checkpointWal(db.database.db);
  const size = await dialect.storeSize(db.database.db);
  return (size.db ?? 0) + (size.wal ?? 0);
}

/**
 * PostgreSQL's bytes by table (pg_total_relation_size: the table, its indexes and TOAST), to say where a captured turn
 * goes: its row, or the keyword postings kept in SQL. SQLite's file has no such breakdown without dbstat: none there.
 */
async function tableBytes(db: BenchDb): Promise<Map<string, number>> {
  if (db.database.kind !== 'postgres') return new Map();
  const { rows } = await sql<{ name: string; bytes: string }>`
    select c.relname as name, pg_total_relation_size(c.oid) as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = current_schema()`.execute(db.database.db);
  return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
}

export async function benchCapture(o: CaptureOptions): Promise<CaptureResult> {
  const db = await openBenchDb();
  try {
    await db.services.settings.update({ enabled: true });
    await seedMemories(db.database, { count: o.memories, apiKeys: 1, seed: 321 });
    await analyzeLikeAServer(db.database);
    const apiKeyId = apiKeyName(0);
    const sessionId = 'bench-capture-session';
    // New text every call, as a gateway sends: the same text again would be captured once and then cost a lookup only.
    let said = 0;
    const message = () => chatText(90_000 + said++, o.messageChars);
    const extract = () => extractAndStore(db.services, { apiKeyId, sessionId, text: message(), role: 'user' });
    // One conversation: its history is captured on the first USER request (a warm-up), then each request adds its
    // new last message, as a chat that goes on does.
    const history = chatRequest(4321, o.messages).messages.slice(0, -1);
    const ask = questionStream(4322);
    let asked = 0;
    const request = () => ({
      model: 'gpt-4o-mini',
      messages: [...history, { role: 'user', content: `${ask()} (${asked++})` }],
    });
    const inject = async () => {
      const out = await injectMemory(db.services, { apiKeyId, sessionId, request: request(), provider: 'openai/gpt-4o-mini' });
      if (!out.injected) throw new Error('injectMemory did not inject');
    };
    const messageBytes = Buffer.byteLength(chatText(90_000, o.messageChars));
    const requestBytes = Buffer.byteLength(JSON.stringify(request()));

    const samples = {
      extractAndStore: { OFF: [] as number[], USER: [] as number[] },
      injectMemory: { OFF: [] as number[], USER: [] as number[] },
    };
    const time = async (into: number[], fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      await fn();
      into.push(performance.now() - t0);
    };
    for (const mode of MODES) {
      await db.services.settings.update({ captureTurns: mode });
      for (let i = 0; i < o.warmup; i++) {
        await extract();
        await inject();
      }
    }
    for (let done = 0; done < o.iterations; done += o.block) {
      for (const mode of MODES) {
        await db.services.settings.update({ captureTurns: mode });
        for (let i = 0; i < Math.min(o.block, o.iterations - done); i++) {
          await time(samples.extractAndStore[mode], extract);
          await time(samples.injectMemory[mode], inject);
        }
      }
    }

    const growth: Record<Mode, Growth> = {
      OFF: { bytes: 0, messages: 0, captured: 0, tables: new Map() },
      USER: { bytes: 0, messages: 0, captured: 0, tables: new Map() },
    };
    for (let done = 0; done < o.growthTurns; done += o.block) {
      for (const mode of MODES) {
        await db.services.settings.update({ captureTurns: mode });
        const before = await storeBytes(db);
        const tablesBefore = await tableBytes(db);
        for (let i = 0; i < Math.min(o.block, o.growthTurns - done); i++) {
          const out = await extract();
          growth[mode].messages++;
          if (out.captured.length > 0) growth[mode].captured++;
        }
        growth[mode].bytes += (await storeBytes(db)) - before;
        for (const [name, bytes] of await tableBytes(db)) {
          growth[mode].tables.set(name, (growth[mode].tables.get(name) ?? 0) + bytes - (tablesBefore.get(name) ?? 0));
        }
      }
    }
    const summaries = (s: Record<Mode, number[]>) => ({ OFF: summarize(s.OFF), USER: summarize(s.USER) });
    return {
      latency: { extractAndStore: summaries(samples.extractAndStore), injectMemory: summaries(samples.injectMemory) },
      growth,
      messageBytes,
      requestBytes,
    };
  } finally {
    await db.close();
  }
}

export function captureTables(r: CaptureResult, o: CaptureOptions): Table[] {
  const ops = ['extractAndStore', 'injectMemory'] as const;
  const ratio = (op: (typeof ops)[number]) => r.latency[op].USER.p50 / r.latency[op].OFF.p50;
  const what = {
    extractAndStore: `extractAndStore, a user message of ~${fmtInt(r.messageBytes)} bytes`,
    injectMemory: `injectMemory, a ${o.messages}-message chat request of ~${fmtInt(r.requestBytes)} bytes`,
  };
  const latency: Table = {
    title: `turn capture per request, ms (one key of ${fmtInt(o.memories)} memories, ${benchStoreKind()}; captureTurns OFF and USER alternating in blocks of ${o.block})`,
    columns: [
      { header: 'operation', align: 'left' },
      { header: 'OFF p50' },
      { header: 'OFF p95' },
      { header: 'USER p50' },
      { header: 'USER p95' },
      { header: 'USER/OFF p50' },
      { header: 'n' },
    ],
    rows: ops.map((op) => [
      what[op],
      fmtMs(r.latency[op].OFF.p50),
      fmtMs(r.latency[op].OFF.p95),
      fmtMs(r.latency[op].USER.p50),
      fmtMs(r.latency[op].USER.p95),
      `${ratio(op).toFixed(2)}x`,
      `${r.latency[op].OFF.n}+${r.latency[op].USER.n}`,
    ]),
    notes: [
      ...ops.map(
        (op) =>
          `target: ${op} with capture on within ${TARGET_RATIO}x of off (p50): ${ratio(op).toFixed(2)}x, ${ratio(op) <= TARGET_RATIO ? 'MET' : 'MISSED'}.`,
      ),
      'Each call sends new text; injectMemory keeps one conversation whose history was captured in the warm-up, so USER',
      `stores its new last message (a lookup of the history's keys, one insert). load ${loadLine()}`,
    ],
  };
  const per1000 = (g: { bytes: number; messages: number }) => (g.messages ? (g.bytes / g.messages) * 1000 : Number.NaN);
  // What USER stores beyond OFF's facts, over the turns it captured.
  const { OFF: off, USER: user } = r.growth;
  const perTurn = (userBytes: number, offBytes: number) =>
    user.captured ? ((userBytes - (offBytes / Math.max(1, off.messages)) * user.messages) / user.captured) * 1000 : Number.NaN;
  const captureOnly = perTurn(user.bytes, off.bytes);
  const byTable = [...user.tables]
    .map(([name, bytes]) => [name, perTurn(bytes, off.tables.get(name) ?? 0)] as const)
    .filter(([, bytes]) => bytes >= 1024)
    .sort((a, b) => b[1] - a[1]);
  const kib = (bytes: number) => `${fmtInt(bytes / 1024)} KiB`;
  const growth: Table = {
    title: `database growth per 1,000 extractAndStore calls (${benchStoreKind()}, store size after a checkpoint${benchStoreKind() === 'postgres' ? ': pg_database_size' : ': file + WAL'})`,
    columns: [
      { header: 'captureTurns', align: 'left' },
      { header: 'messages' },
      { header: 'turns captured' },
      { header: 'growth' },
      { header: 'per 1,000 messages' },
    ],
    rows: MODES.map((mode) => [
      mode,
      fmtInt(r.growth[mode].messages),
      fmtInt(r.growth[mode].captured),
      kib(r.growth[mode].bytes),
      kib(per1000(r.growth[mode])),
    ]),
    notes: [
      `per 1,000 captured turns (USER's growth less OFF's, the facts being stored either way): ${kib(captureOnly)}.`,
      ...(byTable.length
        ? [`of it, by table (indexes and TOAST included): ${byTable.map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', ')}.`]
        : []),
      'Files grow by pages (and PostgreSQL by relation extents), so a few hundred calls give a coarse figure.',
    ],
  };
  return [latency, growth];
}

const CAPTURE_SIZES: Record<'quick' | 'full', CaptureOptions> = {
  quick: { memories: 1000, messages: 10, messageChars: 600, iterations: 60, block: 20, warmup: 5, growthTurns: 200 },
  full: { memories: 10_000, messages: 10, messageChars: 600, iterations: 300, block: 50, warmup: 20, growthTurns: 1000 },
};

export const sections: BenchSection[] = [
  {
    name: 'capture',
    group: 'retrieve',
    description: 'extractAndStore and injectMemory with captureTurns OFF vs USER at 10k memories; growth per 1,000 turns',
    stores: ['sqlite', 'postgres'],
    run: async ({ quick }) => {
      const o = CAPTURE_SIZES[quick ? 'quick' : 'full'];
      for (const t of captureTables(await benchCapture(o), o)) printTable(t);
    },
  },
];
