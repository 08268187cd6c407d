import { STAGES, type Stage, StageClock } from '../../server/retrieval/stageClock.ts';
import { percentile } from './stats.ts';
import { fmtMs, type Table } from './table.ts';

/** Each stage's time over many retrievals: p50 and mean of its milliseconds per call, and its mean items per call. */
export interface StageReport {
  calls: number;
  total: { p50: number; mean: number };
  stages: { stage: Stage; p50: number; mean: number; items: number }[];
}

/** Runs `call` `calls` times, each with a fresh StageClock, and sums up where the time went. */
export async function measureStages(call: (clock: StageClock) => Promise<unknown>, calls: number): Promise<StageReport> {
  const clocks: StageClock[] = [];
  const totals: number[] = [];
  for (let i = 0; i < calls; i++) {
    const clock = new StageClock();
    const t0 = performance.now();
    await call(clock);
    totals.push(performance.now() - t0);
    clocks.push(clock);
  }
  const summary = (xs: number[]) => ({
    p50: percentile(
      [...xs].sort((a, b) => a - b),
      50,
    ),
    mean: xs.reduce((s, x) => s + x, 0) / xs.length,
  });
  return {
    calls,
    total: summary(totals),
    stages: STAGES.map((stage) => ({
      stage,
      ...summary(clocks.map((c) => c.times[stage].ms)),
      items: clocks.reduce((s, c) => s + c.times[stage].items, 0) / calls,
    })),
  };
}

const ITEMS: Record<Stage, string> = {
  settings: 'settings read',
  exact: 'rows read',
  keyword: 'candidates returned',
  vector: 'candidates returned',
  fusion: 'candidates fused',
  adjacency: 'candidates after neighbours',
  rerank: 'candidates reranked',
  enforced: 'rows read',
  budget: 'candidates offered',
  nearDuplicates: 'texts compared',
  profile: 'rows read',
  recording: 'memories recorded',
};

export function stageTable(report: StageReport, title: string, notes: string[]): Table {
  const ran = report.stages.filter((s) => s.mean > 0);
  return {
    title,
    columns: [
      { header: 'stage', align: 'left' },
      { header: 'p50 ms' },
      { header: 'mean ms' },
      { header: 'share of mean' },
      { header: 'items' },
      { header: 'µs per item' },
      { header: 'items are', align: 'left' },
    ],
    rows: [
      ...ran.map((s) => [
        s.stage,
        fmtMs(s.p50),
        fmtMs(s.mean),
        `${((100 * s.mean) / report.total.mean).toFixed(0)}%`,
        s.items.toFixed(1),
        s.items > 0 ? ((1000 * s.mean) / s.items).toFixed(1) : '',
        ITEMS[s.stage],
      ]),
      ['whole retrieve', fmtMs(report.total.p50), fmtMs(report.total.mean), '100%', '', '', ''],
    ],
    notes: [
      `${report.calls} calls, each with its own clock (server/retrieval/stageClock.ts); stages that took no time are left out.`,
      'with a clock the keyword and the vector tier run one after the other, so each is timed alone; nearDuplicates is',
      'timed inside the budget walk and the profile fill, and left out of their figures.',
      ...notes,
    ],
  };
}
