import { describe, expect, it } from 'vitest';
import { pastPrefix } from '../../server/db/prefixRange.ts';

const within = (key: string, prefix: string) => {
  const past = pastPrefix(prefix);
  return key >= prefix && (past === null || key < past);
};

describe('a key prefix as a range of the key index', () => {
  it('holds every key that starts with the prefix, its versions and longer objects alike', () => {
    for (const key of ['uses:vim', 'uses:vim~v2', 'uses:vim-for-everything', `uses:vim${String.fromCodePoint(0x10ffff)}`])
      expect(within(key, 'uses:vim')).toBe(true);
  });

  it('holds no key that only shares part of it, nor one in another case', () => {
    for (const key of ['uses:vi', 'uses:vin', 'uses:viz', 'Uses:vim', 'uses:Vim']) expect(within(key, 'uses:vim')).toBe(false);
  });

  it('steps over the surrogates and past the last code point', () => {
    expect(pastPrefix('a\u{d7ff}')).toBe('a\u{e000}');
    expect(pastPrefix(`a${String.fromCodePoint(0x10ffff)}`)).toBe('b');
    expect(pastPrefix('')).toBeNull();
  });
});
