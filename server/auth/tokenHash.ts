import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'mnemo_';

/** 256 random bits: enough entropy that a fast hash is a safe way to store it. */
export function generateToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
