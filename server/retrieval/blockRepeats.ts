import type { Memory } from '../memory/memory.ts';
import { turnOf } from './factsInTurns.ts';
import { DistinctTexts } from './nearDuplicates.ts';
import type { LeftOutReason } from './receipt.ts';
import type { RetrievedMemory } from './retrieval.ts';

/**
 * What a block has taken so far, to leave out a memory that fits the budget but would say again what the block holds:
 * a text that nearly repeats one taken (nearDuplicates.ts), or a fact whose captured turn is taken (factsInTurns.ts).
 * An enforced memory is pinned to every block and is never refused.
 */
export class BlockRepeats {
  private readonly texts = new DistinctTexts();
  private readonly ids = new Set<string>();

  /** Why `c` is left out, or null when the block takes it (and it counts as taken from then on). */
  refuse(c: RetrievedMemory): LeftOutReason | null {
    const always = c.tier === 'enforced';
    if (!always && this.holdsTurnOf(c.memory)) return 'in_its_turn';
    if (!this.texts.admit(c.memory.content, { always })) return 'near_duplicate';
    this.ids.add(c.memory.id);
    return null;
  }

  /** How many texts were left out as near-duplicates. */
  get nearDuplicates(): number {
    return this.texts.dropped;
  }

  private holdsTurnOf(memory: Memory): boolean {
    const turn = turnOf(memory);
    return turn !== null && this.ids.has(turn);
  }
}
