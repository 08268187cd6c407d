import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateToken } from '../../server/auth/tokenHash.ts';
import { extractFacts } from '../../server/gateway/extraction.ts';
import { containsSecret } from '../../server/gateway/secretFilter.ts';
import { ORDINARY_SENTENCES } from '../helpers/ordinarySentences.ts';

describe('credential phrasings', () => {
  it.each([
    'my wifi password is hunter2',
    'passw0rd hunter2',
    'the passphrase is open sesame please',
    'my password for the office wifi is tr0ub4dor',
    'P@ssw0rd: letmein',
    'pasword hunter2',
    'my passwrd = abc',
    'the pw is hunter2',
    'pwd hunter2',
    'my password’s hunter2',
    'p4ssphr4se is purple monkey dishwasher',
    'the pass code is 0000',
    'my PIN is 4821',
    'pin code 4821',
    'My bank PIN number: 0042',
    'secret: swordfish',
    'the secret key is abc123',
    'client secret = 9f8e7d',
    'token abc123def',
    'the token is xk-77-ab',
    'refresh token: anything at all',
    'hunter2 is my password',
    'Tr0ub4dor&3 is my wifi password.',
    'I changed my password to bluebird',
    'The login code is 845221',
    'I always use hunter2 as my password.',
    'I prefer the passphrase correct horse battery staple for my vault.',
    'The door code is 4821.',
    'the code for the front door is 1234#',
    'garage code: 7777',
    'The safe combination is 12-34-56',
    'My seed phrase is abandon ability able about above absent absorb abstract absurd abuse access accident',
    'my recovery words: legal winner thank year wave sausage worth useful legal winner thank yellow',
  ])('detects "%s"', (text) => {
    expect(containsSecret(text)).toBe(true);
  });

  it.each([
    'I use a password manager',
    'The secret to good bread is patience',
    'Pin the tab so it stays open',
    'My password was wrong!',
    'Bitwarden is my password manager',
    'I forgot my password again',
    'the token limit is what matters',
    'I changed my password to something longer',
    'I use Bitwarden as my password manager.',
    'The passphrase generator in my vault is great.',
    'The error code is 404.',
    'The code for the front door was changed last week.',
    'I keep my recovery words on paper in a drawer.',
  ])('lets "%s" through', (text) => {
    expect(containsSecret(text)).toBe(false);
  });

  it('stores none of the facts of a message that states a credential, and keeps the rest', () => {
    const facts = extractFacts('I like passw0rd hunter2. My wifi password for the office is tr0ub4dor. I prefer tea.', { role: 'user' });
    expect(facts.map((f) => f.content)).toEqual(['Prefers tea']);
  });
});

describe('seed phrases written out bare', () => {
  it.each([
    'abandon ability able about above absent absorb abstract absurd abuse access accident',
    'here you go: zoo zone zero youth young yellow year wrong wrist write worth world word wool wood wolf wise wire winter wing wine window',
  ])('detects "%s"', (text) => {
    expect(containsSecret(text)).toBe(true);
  });

  it('lets a long sentence of ordinary prose through', () => {
    expect(containsSecret('we spent the whole weekend hiking along the coast and then drove back home late on sunday night')).toBe(false);
  });
});

describe('random-looking strings of any prefix', () => {
  it('detects every token mnemo mints, with its prefix, without it, and its first 28 characters', () => {
    for (let i = 0; i < 200; i++) {
      const token = generateToken();
      expect(containsSecret(`I like ${token}`)).toBe(true);
    }
    expect(containsSecret('Mwze4x6fsNNgMNVm2Xd0aVA7Bd9y')).toBe(true);
    expect(containsSecret('I like mnemo_Mwze4x6fsNNgMNVm2Xd0aV')).toBe(true);
  });

  /** Random base64url of a given length: what most tokens are, whatever prefix they carry. */
  const randomRuns = (length: number, prefix: string) =>
    fc
      .sample(fc.uint8Array({ minLength: 32, maxLength: 32 }), { seed: 11, numRuns: 2_000 })
      .map((bytes) => `${prefix}${Buffer.from(bytes).toString('base64url').slice(0, length)}`);

  it.each([
    [20, '', 0.97],
    [28, '', 0.98],
    [28, 'acme_', 0.98],
    [43, 'key-', 0.99],
  ])('catches random %i-character runs after "%s" (at least %d of them)', (length, prefix, share) => {
    const runs = randomRuns(length, prefix);
    const caught = runs.filter((run) => containsSecret(`use ${run} for the build`)).length / runs.length;
    expect(caught).toBeGreaterThanOrEqual(share);
  });
});

describe('ordinary sentences (the false-positive rate)', () => {
  it('flags at most 1% of a fixed corpus of ordinary sentences', () => {
    const flagged = ORDINARY_SENTENCES.filter(containsSecret);
    const rate = flagged.length / ORDINARY_SENTENCES.length;
    console.info(
      `secret filter: ${flagged.length} of ${ORDINARY_SENTENCES.length} ordinary sentences flagged (${(100 * rate).toFixed(1)}%)`,
      flagged,
    );
    expect(rate).toBeLessThanOrEqual(0.01);
  });
});
