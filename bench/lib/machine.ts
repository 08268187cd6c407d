import os from 'node:os';
import { type BenchStore, storeLine } from './benchStore.ts';

/** What the figures were measured on; printed before every run. */
export async function machineLines(store: BenchStore): Promise<string[]> {
  const cpus = os.cpus();
  return [
    `cpu      ${cpus[0]?.model.trim() ?? 'unknown'} (${cpus.length} cores${os.availableParallelism ? `, ${os.availableParallelism()} usable` : ''})`,
    `memory   ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB total, ${(os.freemem() / 2 ** 30).toFixed(1)} GiB free`,
    `os       ${os.type()} ${os.release()} ${os.arch()}`,
    `load     ${loadLine()}`,
    `node     ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}`,
    await storeLine(store),
  ];
}

/** Other processes skew every figure; the load average says how busy the machine was. */
export function loadLine(): string {
  const [one, five, fifteen] = os.loadavg().map((x) => x.toFixed(2));
  const busy = os.loadavg()[0]! > os.availableParallelism() * 0.5;
  return `${one} ${five} ${fifteen} (1/5/15 min)${busy ? ' - the machine is busy; figures will be slower and noisier' : ''}`;
}
