/**
 * Where one retrieval's time goes, stage by stage, with the items each stage touched: what `npm run bench` prints
 * to tell a stage that costs more than it earns. A caller that wants the figures passes a StageClock to retrieve();
 * without one, each stage boundary is an optional call that does nothing. Stages are laps: each is charged the time
 * since the one before it, so a clocked retrieval runs its keyword and vector tiers one after the other (they run side
 * by side otherwise, and each would be charged the other's time).
 */

/** In the order a retrieval runs them; `exact` (EXACT's newest rows) stands where the ranking stages stand. */
export const STAGES = [
  'settings',
  'exact',
  'keyword',
  'vector',
  'fusion',
  'adjacency',
  'rerank',
  'enforced',
  'budget',
  'nearDuplicates',
  'profile',
  'recording',
] as const;
export type Stage = (typeof STAGES)[number];

export interface StageTime {
  ms: number;
  /** What the stage worked through: rows read, candidates ranked or walked, texts compared. */
  items: number;
}

export class StageClock {
  readonly times = Object.fromEntries(STAGES.map((s) => [s, { ms: 0, items: 0 }])) as Record<Stage, StageTime>;
  #mark = performance.now();
  /** Time charged since the mark to stages nested in the lap running now. */
  #nested = 0;

  /** Charges the time since the previous lap to `stage`, less what its nested stages took. */
  lap(stage: Stage, items: number): void {
    const now = performance.now();
    this.#charge(stage, now - this.#mark - this.#nested, items);
    this.#mark = now;
    this.#nested = 0;
  }

  /** Times a call inside the running lap as `stage` (one item), leaving it out of the lap's own time. */
  nest<T>(stage: Stage, call: () => T): T {
    const start = performance.now();
    const result = call();
    const ms = performance.now() - start;
    this.#charge(stage, ms, 1);
    this.#nested += ms;
    return result;
  }

  #charge(stage: Stage, ms: number, items: number) {
    const t = this.times[stage];
    t.ms += ms;
    t.items += items;
  }
}

/** `call` timed as `stage` nested in the running lap when there is a clock, run as it is when there is none. */
export function nested<T>(clock: StageClock | undefined, stage: Stage, call: () => T): T {
  return clock ? clock.nest(stage, call) : call();
}
