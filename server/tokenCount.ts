import { countTokens as countO200k, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

/** The encoding every token figure in mnemo uses: o200k_base (GPT-4o and later). */
export const TOKEN_ENCODING = 'o200k_base';

/**
 * Memories of LLM users talk about prompts, so "<|endoftext|>" or "<|im_start|>" is ordinary text here. By
 * default the tokenizer refuses such text; with no special token disallowed (and none allowed), it encodes each
 * spelling as the plain characters it is, which is also what a provider bills for text sent in a message.
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return countO200k(text, AS_PLAIN_TEXT);
}

/** The longest prefix of the text that fits in `tokens`, ending with an ellipsis when cut. */
export function truncateToTokens(text: string, tokens: number): string {
  if (tokens <= 0) return '';
  const ids = encode(text, AS_PLAIN_TEXT);
  if (ids.length <= tokens) return text;
  // Decoding a cut token list can end mid-character; drop the replacement character that leaves.
  const head = decode(ids.slice(0, Math.max(0, tokens - 1))).replace(/\uFFFD+$/u, '');
  return `${head}…`;
}
