import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** The encoding every token figure in mnemo uses: o200k_base (GPT-4o and later). */
export const TOKEN_ENCODING = 'o200k_base';

export function countTokens(text: string): number {
  return countO200k(text);
}
