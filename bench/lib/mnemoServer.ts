import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mnemoEntry, ROOT } from '../../test/helpers/mnemoEntry.ts';
import { BENCH_ADMIN_TOKEN } from './benchDb.ts';

const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';
/** Characters of the server's output kept once it listens: what an error shows. */
const OUTPUT_TAIL = 2000;

/** `mnemo serve` as a real process (its primary and workers), on a data folder the bench prepared. */
export interface ServedMnemo {
  url: string;
  /**
   * Memory of the server's processes together (the primary and its workers), in bytes, now: resident (RSS, which counts
   * the pages the processes share, such as the database file they all map, once per process) and proportional (PSS,
   * each shared page split among its sharers: what the server takes from the machine).
   */
  memory(): { rss: number; pss: number };
  /** The server's /metrics (every worker's, combined). */
  metrics(): Promise<string>;
  /** SIGTERM, as an operator stops it; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `mnemo serve` with `workers` workers on the folder, keyword-only (no embedding model) as the in-process
 * sections run, with /metrics open to the bench (so the server records metrics, as a monitored deployment does).
 */
export async function serveMnemo(dataDir: string, workers: number): Promise<ServedMnemo> {
  const child = spawn(process.execPath, [...mnemoEntry(), 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      MNEMO_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      MNEMO_METRICS_TOKEN: METRICS_TOKEN,
      MNEMO_WORKERS: String(workers),
      // No embedding model, as the in-process sections' offline configuration: no word vectors to convert and load,
      // no embedding worker at work beside the load.
      MEMORY_STATIC_ALLOW_DOWNLOAD: 'false',
      MEMORY_STATIC_PACKAGE: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      // Once it listens, only the tail is kept (for an error's message): the server logs a line per request, and
      // keeping them all and searching them again on every chunk grew with the square of a load's length.
      if (listening) {
        out = (out + text).slice(-OUTPUT_TAIL);
        return;
      }
      out += text;
      const line = out.split('\n').find((l) => l.includes('mnemo is listening'));
      if (line) {
        listening = true;
        resolve((JSON.parse(line) as { url: string }).url.replace(/\/$/, ''));
      }
    });
    void exited.then((code) => reject(new Error(`mnemo serve exited with ${code} before it listened:\n${out}`)));
  });
  const pid = child.pid!;
  return {
    url,
    memory: () => {
      const each = [pid, ...childrenOf(pid)].map(memoryOf);
      return { rss: each.reduce((sum, m) => sum + m.rss, 0), pss: each.reduce((sum, m) => sum + m.pss, 0) };
    },
    metrics: async () => {
      const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
      return res.text();
    },
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`mnemo serve stopped with ${code}:\n${out.slice(-OUTPUT_TAIL)}`);
    },
  };
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process's RSS and PSS in bytes (/proc/<pid>/smaps_rollup); 0 once it is gone. */
function memoryOf(pid: number): { rss: number; pss: number } {
  let rollup = '';
  try {
    rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  } catch {
    // Gone: it holds nothing.
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
  return { rss: kb('Rss'), pss: kb('Pss') };
}

/** The value of a metric without labels (or the first series of it) in a Prometheus text exposition; NaN when absent. */
export function metricValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

/** GC pauses longer than 100 ms so far, every kind together (nodejs_gc_duration_seconds: +Inf less the 0.1 s bucket). */
export function gcPausesOver100Ms(text: string): number {
  const sum = (le: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith('nodejs_gc_duration_seconds_bucket{') && l.includes(`le="${le}"`))
      .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  return sum('+Inf') - sum('0.1');
}
