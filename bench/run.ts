/**
 * npm run bench [-- --quick | --full] [-- --only <section|group>[,...]] [-- --store sqlite|postgres]
 * Prints the machine, then one table per section. A script, not a test: it asserts nothing about timings.
 */
// First, as in server/main.ts: the server under test runs with NODE_ENV=production, as `mnemo serve` does.
import '../server/nodeEnv.ts';
import { parseArgs } from 'node:util';
import { sections as adminSections } from './admin.bench.ts';
import { sections as captureSections } from './capture.bench.ts';
import { sections as clientSections } from './client.bench.ts';
import { sections as importSections } from './import.bench.ts';
import { openBenchDb } from './lib/benchDb.ts';
import { stopBenchStores, useBenchStore } from './lib/benchStore.ts';
import { loadLine, machineLines } from './lib/machine.ts';
import type { BenchSection } from './lib/section.ts';
import { sections as lifecycleSections } from './lifecycle.bench.ts';
import { sections as loadSections } from './load.bench.ts';
import { sections as mcpSections } from './mcp.bench.ts';
import { sections as observabilitySections } from './observability.bench.ts';
import { sections as retrieveSections } from './retrieve.bench.ts';
import { sections as storeSections } from './store.bench.ts';
import { sections as truthSections } from './truth.bench.ts';
import { sections as vectorSections } from './vector.bench.ts';
import { sections as wordVectorSections } from './wordVectors.bench.ts';

/** Every section, in run order; add new bench files here. */
const SECTIONS: BenchSection[] = [
  ...storeSections,
  ...truthSections,
  ...retrieveSections,
  ...captureSections,
  ...mcpSections,
  ...vectorSections,
  ...wordVectorSections,
  ...clientSections,
  ...loadSections,
  ...observabilitySections,
  ...lifecycleSections,
  ...importSections,
  ...adminSections,
];

const HELP = `npm run bench -- [options]

  --quick            small sizes, for a smoke run
  --full             the largest sizes too (1M memories over 1,000 keys); takes several minutes more
  --only <names>     comma-separated sections or groups to run (default: all)
  --workers <list>   the MNEMO_WORKERS values the load sections run side by side, comma-separated (default: 1,2)
  --store <store>    sqlite (default) or postgres: a throwaway PostgreSQL 15 cluster started for the run (Debian's
                     postgresql-15); only the sections marked [postgres] run on it
  --help

sections:
${SECTIONS.map((s) => `  ${`${s.group}/${s.name}`.padEnd(20)} ${s.description}${s.stores?.includes('postgres') ? ' [postgres]' : ''}`).join('\n')}
`;

const parseOptions = (argv: string[]) =>
  parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      store: { type: 'string', default: 'sqlite' },
      workers: { type: 'string', default: '1,2' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parseOptions>;
  try {
    values = parseOptions(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${HELP}`);
    return 64;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.quick && values.full) {
    process.stderr.write(`--quick and --full contradict each other\n\n${HELP}`);
    return 64;
  }
  const store = values.store;
  if (store !== 'sqlite' && store !== 'postgres') {
    process.stderr.write(`--store must be sqlite or postgres\n\n${HELP}`);
    return 64;
  }
  const workers = values.workers.split(',').map((w) => Number(w.trim()));
  if (workers.some((w) => !Number.isInteger(w) || w < 1 || w > 64)) {
    process.stderr.write(`--workers takes whole numbers from 1 to 64, comma-separated\n\n${HELP}`);
    return 64;
  }
  const onStore = (s: BenchSection) => (s.stores ?? ['sqlite']).includes(store);
  const wanted = (values.only ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((w) => !SECTIONS.some((s) => s.name === w || s.group === w || `${s.group}/${s.name}` === w));
  if (unknown.length) {
    process.stderr.write(`unknown section: ${unknown.join(', ')}\n\n${HELP}`);
    return 64;
  }
  const named = wanted.length
    ? SECTIONS.filter((s) => wanted.some((w) => s.name === w || s.group === w || `${s.group}/${s.name}` === w))
    : SECTIONS;
  const selected = named.filter(onStore);
  if (selected.length === 0) {
    process.stderr.write(`none of these sections runs on ${store}\n\n${HELP}`);
    return 64;
  }
  useBenchStore(store);
  try {
    const probe = await openBenchDb();
    const machine = await machineLines(probe.database);
    await probe.close();
    console.log(`mnemo bench${values.quick ? ' (--quick)' : values.full ? ' (--full)' : ''}  ${new Date().toISOString()}`);
    for (const line of machine) console.log(`  ${line}`);
    const skipped = named.filter((s) => !onStore(s));
    if (skipped.length) console.log(`  not on ${store}: ${skipped.map((s) => `${s.group}/${s.name}`).join(', ')}`);
    await runSections(selected, { ...values, workers });
  } finally {
    await stopBenchStores();
  }
  return 0;
}

async function runSections(selected: BenchSection[], values: { quick?: boolean; full?: boolean; workers: number[] }) {
  const started = performance.now();
  for (const section of selected) {
    const t0 = performance.now();
    await section.run({ quick: values.quick ?? false, full: values.full ?? false, workers: values.workers });
    console.log(`  (${section.group}/${section.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s; load ${loadLine()}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
