/**
 * `mnemo import` from each format it reads: the same generated memories written as a file of each (mnemo's JSON
 * lines, CSV, a mem0 export, a Letta agent file, an OmniRoute database), each imported into an empty store as the
 * command does, timed from the first row read to the report. The yardstick is mnemo's own JSON lines: each format
 * should import within twice its time.
 */
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { importFile, READERS } from '../server/portability/importFile.ts';
import type { ImportFormat } from '../server/portability/sourceRows.ts';
import { openBenchDb } from './lib/benchDb.ts';
import type { BenchSection } from './lib/section.ts';
import { apiKeyName } from './lib/seed.ts';
import { inTurns } from './lib/stats.ts';
import { fmtInt, fmtMs, perSecond, printTable, type Table } from './lib/table.ts';
import { rng, sentence } from './lib/text.ts';

export interface ImportFormatsOptions {
  rows: number;
  apiKeys: number;
  /** Each format is imported once per round, the order reversed every other round; its fastest round counts. */
  rounds: number;
}

/** One generated memory, in the fields every format below has in some spelling. */
interface Generated {
  id: string;
  apiKeyId: string;
  content: string;
  createdAt: string;
}

export interface ImportFormatResult {
  format: ImportFormat;
  fileBytes: number;
  /** The import's time, the fastest of the rounds. */
  ms: number;
  /** The reader's alone: every row of the file read, nothing imported. */
  readMs: number;
  /** Rows the report counts as new (all of them, into an empty store). */
  imported: number;
  skipped: number;
  /** How often the progress line was called: once per batch, for a file of any format. */
  progressLines: number;
}

function generate(o: ImportFormatsOptions): Generated[] {
  const random = rng(911);
  const start = Date.now() - 10 * 86_400_000;
  return Array.from({ length: o.rows }, (_, i) => ({
    id: `m-${i}`,
    apiKeyId: apiKeyName(i % o.apiKeys),
    content: sentence(random),
    createdAt: new Date(start + i * 1000).toISOString(),
  }));
}

/** The memories as a file of `format`, in the shape its reader documents (server/portability/formats/). */
function formatFile(format: ImportFormat, rows: Generated[], dir: string): string {
  const file = path.join(dir, `memories.${format}`);
  const json = (value: unknown) => writeFileSync(file, JSON.stringify(value));
  switch (format) {
    case 'jsonl':
      writeFileSync(
        file,
        `${rows.map((r) => JSON.stringify({ apiKeyId: r.apiKeyId, type: 'FACTUAL', key: r.id, content: r.content, createdAt: r.createdAt })).join('\n')}\n`,
      );
      break;
    case 'csv':
      writeFileSync(
        file,
        `apiKeyId,type,key,content,createdAt\n${rows.map((r) => `${r.apiKeyId},factual,${r.id},"${r.content.replaceAll('"', '""')}",${r.createdAt}`).join('\n')}\n`,
      );
      break;
    case 'mem0':
      json({ results: rows.map((r) => ({ id: r.id, memory: r.content, metadata: {}, created_at: r.createdAt, user_id: r.apiKeyId })) });
      break;
    case 'letta': {
      const agents = [...new Set(rows.map((r) => r.apiKeyId))].map((name) => ({ id: name, name, block_ids: [] }));
      const passages = rows.map((r) => ({ id: r.id, text: r.content, agent_id: r.apiKeyId, created_at: r.createdAt, tags: [] }));
      json({ agents, blocks: [], passages });
      break;
    }
    case 'omniroute': {
      const db = new SQLite(file);
      db.exec(`create table memories (id text primary key, api_key_id text not null, session_id text, type text not null, key text,
        content text not null, metadata text, created_at text not null, updated_at text not null, expires_at text)`);
      const insert = db.prepare("insert into memories values (?, ?, null, 'factual', ?, ?, '{}', ?, ?, null)");
      db.transaction(() => {
        for (const r of rows) insert.run(r.id, r.apiKeyId, r.id, r.content, r.createdAt, r.createdAt);
      })();
      db.close();
      break;
    }
  }
  return file;
}

const FORMATS: ImportFormat[] = ['jsonl', 'csv', 'mem0', 'letta', 'omniroute'];

/** Each format's file of the same memories, imported into a store of its own, once per round. */
export async function benchImportFormats(o: ImportFormatsOptions): Promise<ImportFormatResult[]> {
  const rows = generate(o);
  const results = new Map<ImportFormat, ImportFormatResult>();
  for (let round = 0; round < o.rounds; round++) {
    for (const [, format] of inTurns(FORMATS, round)) {
      const run = await importOnce(format, rows);
      const best = results.get(format);
      if (!best || run.ms < best.ms) results.set(format, run);
    }
  }
  return FORMATS.map((format) => results.get(format)!);
}

async function importOnce(format: ImportFormat, rows: Generated[]): Promise<ImportFormatResult> {
  const db = await openBenchDb();
  try {
    const file = formatFile(format, rows, db.dir);
    const placement = { apiKeyId: null, keyFrom: null, sessionFrom: null };
    const r0 = performance.now();
    for await (const _ of READERS[format](file, placement));
    const readMs = performance.now() - r0;
    let progressLines = 0;
    const t0 = performance.now();
    const report = await importFile(db.services, { format, file, dryRun: false, placement, onProgress: () => progressLines++ });
    const ms = performance.now() - t0;
    return { format, fileBytes: statSync(file).size, ms, readMs, imported: report.imported, skipped: report.skipped, progressLines };
  } finally {
    await db.close();
  }
}

export function importFormatsTable(results: ImportFormatResult[], o: ImportFormatsOptions): Table {
  const jsonl = results.find((r) => r.format === 'jsonl')!;
  return {
    title: `mnemo import of ${fmtInt(o.rows)} memories over ${o.apiKeys} API keys, from each format into an empty store (best of ${o.rounds})`,
    columns: [
      { header: 'format' },
      { header: 'file MB' },
      { header: 'seconds' },
      { header: 'of it reading' },
      { header: 'rows/s' },
      { header: 'time ÷ jsonl' },
      { header: 'new' },
      { header: 'skipped' },
      { header: 'progress lines' },
    ],
    rows: results.map((r) => [
      r.format,
      (r.fileBytes / 1e6).toFixed(1),
      fmtMs(r.ms / 1000),
      fmtMs(r.readMs / 1000),
      fmtInt(perSecond(r.imported + r.skipped, r.ms)),
      (r.ms / jsonl.ms).toFixed(2),
      fmtInt(r.imported),
      fmtInt(r.skipped),
      fmtInt(r.progressLines),
    ]),
    notes: [
      'Each file holds the same generated memories, each with a key; the goal is at most 2.00× the time of jsonl.',
      'of it reading: the reader alone going through the file, nothing imported.',
      'progress lines: the progress line mnemo import prints, once per batch of rows read, whatever the format.',
    ],
  };
}

const SIZES: Record<'quick' | 'default', ImportFormatsOptions> = {
  quick: { rows: 5_000, apiKeys: 10, rounds: 1 },
  default: { rows: 100_000, apiKeys: 20, rounds: 2 },
};

export const sections: BenchSection[] = [
  {
    name: 'import-formats',
    group: 'lifecycle',
    description: 'mnemo import of 100k rows from each format, against its own JSON lines',
    run: async ({ quick }) => {
      const o = SIZES[quick ? 'quick' : 'default'];
      printTable(importFormatsTable(await benchImportFormats(o), o));
    },
  },
];
