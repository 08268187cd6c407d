import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'mnemo_';

/** 256 random bits: enough entropy that a fast hash is a safe way to store it. */
export function generateToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The part of a token kept in the clear, as other services show a key's first characters: the prefix and 4
 * random characters (24 of its 256 bits), enough to tell an admin's tokens apart, far too few to guess the rest.
 */
export function tokenStart(token: string): string {
  return token.slice(0, PREFIX.length + 4);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
