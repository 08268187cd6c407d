import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_FRAME_TOKENS, lineTokens } from '../../server/memory/blockTokens.ts';
import { formatMemoryBlock } from '../../server/memory/injection.ts';
import { countTokens } from '../../server/tokenCount.ts';
import { ALL_SPECIAL_TOKENS } from '../helpers/specialTokens.ts';

const TYPES = ['factual', 'episodic', 'procedural', 'semantic', 'enforced'];
// Text that tries to make tokens run across line breaks: slashes, breaks, spaces and punctuation at the edges,
// and the spellings of the tokenizer's special tokens, which are priced as the plain text they are.
const edgy = fc.string({
  unit: fc.constantFrom(
    '/',
    '\n',
    '\r',
    ' ',
    '.',
    '-',
    '<',
    '>',
    '[',
    ']',
    'a',
    'Z',
    '1',
    '—',
    '日',
    '😀',
    '\u0301',
    '\t',
    '|',
    ...ALL_SPECIAL_TOKENS,
  ),
  maxLength: 30,
});
const content = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 120 }), edgy);
const memory = fc.record({ id: fc.uuid(), key: fc.string({ maxLength: 20 }), type: fc.constantFrom(...TYPES), content });

describe('pricing the memory block', () => {
  it('adds up the frame and each line to exactly the tokens of the whole block', () => {
    fc.assert(
      fc.property(fc.array(memory, { maxLength: 12 }), (memories) => {
        const priced = BLOCK_FRAME_TOKENS + memories.reduce((sum, m) => sum + lineTokens(m), 0);
        expect(priced).toBe(countTokens(formatMemoryBlock(memories)));
      }),
      { numRuns: 500 },
    );
  });

  it('prices a line again when its text changes', () => {
    const before = lineTokens({ type: 'factual', content: 'Likes tea' });
    expect(lineTokens({ type: 'factual', content: 'Likes tea with lemon and honey every morning' })).toBeGreaterThan(before);
    expect(lineTokens({ type: 'factual', content: 'Likes tea' })).toBe(before);
  });
});
