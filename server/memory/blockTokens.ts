import { LRUCache } from 'lru-cache';
import { countTokens } from '../tokenCount.ts';
import { formatMemoryBlock, formatMemoryLine, type InjectableMemory } from './injection.ts';

/**
 * What the memory block costs in tokens: its frame once, plus each memory's line with its line break. The parts
 * add up exactly to the whole block: o200k_base's pre-tokenizer splits text into pieces before merging tokens,
 * and no piece reaches past a line break that is followed by a line's "- [" or the closing "</memory>" (its
 * patterns end at "\n" unless a "/" or another line break follows, and a line is one line with no edge spaces).
 * So a block is priced without tokenizing it, and a memory's line, which recurs across retrievals, once.
 */

/** The opening delimiter, the preamble and the closing delimiter. */
export const BLOCK_FRAME_TOKENS = countTokens(formatMemoryBlock([]));

// Keyed by the text priced (type and content), so an edited memory is never priced from its old text.
const lineTokenCache = new LRUCache<string, number>({ max: 50_000, maxSize: 16_000_000, sizeCalculation: (_, key) => key.length });

/** The tokens one memory's line adds to the block, its line break included. */
export function lineTokens(m: Pick<InjectableMemory, 'type' | 'content'>): number {
  const key = `${m.type}\u0000${m.content}`;
  let tokens = lineTokenCache.get(key);
  if (tokens === undefined) {
    tokens = countTokens(`${formatMemoryLine(m)}\n`);
    lineTokenCache.set(key, tokens);
  }
  return tokens;
}
