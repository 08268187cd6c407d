import o200k from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Every special token of o200k_base ("<|endoftext|>", "<|im_start|>", …), read from the tokenizer itself so that
 * a tokenizer update that adds one is tested too. The set is private in gpt-tokenizer's types, hence the cast.
 */
export const ALL_SPECIAL_TOKENS: readonly string[] = [...(o200k as unknown as { specialTokensSet: Set<string> }).specialTokensSet];
