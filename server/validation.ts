import { z } from 'zod';
import { badInput } from './errors.ts';

/**
 * The server's validation vocabulary: every limit, and the schemas of values that more than one operation
 * accepts (identifiers, budgets, page sizes), defined once. Domain modules build their input schemas from
 * these and check them with `parseInput`, so the same value is held to the same rule, with the same message,
 * wherever it is given.
 */
export const LIMITS = {
  contentChars: 65_536,
  keyChars: 512,
  idChars: 256,
  metadataBytes: 16_384,
  importRows: 10_000,
  pageSize: 500,
  maxTokens: 16_000,
  retentionDays: 365,
  purgeGraceDays: 365,
} as const;

/** A name given by the caller (an API key, a session, a key): trimmed, not empty, at most LIMITS.idChars. */
export const identifier = (what: string) =>
  z.string().trim().min(1, `${what} must not be empty`).max(LIMITS.idChars, `${what} is longer than ${LIMITS.idChars} characters`);

export const apiKeyIdSchema = identifier('apiKeyId');
export const sessionIdSchema = identifier('sessionId');

/** A whole number in [min, max]; out-of-range values are rejected, never clamped. */
export const wholeNumber = (what: string, min: number, max: number) =>
  z
    .number()
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be between ${min} and ${max}`)
    .max(max, `${what} must be between ${min} and ${max}`);

/** Tokens of the injected memory block. */
export const maxTokensSchema = wholeNumber('maxTokens', 0, LIMITS.maxTokens);
export const retentionDaysSchema = wholeNumber('retentionDays', 1, LIMITS.retentionDays);
export const purgeGraceDaysSchema = wholeNumber('purgeGraceDays', 0, LIMITS.purgeGraceDays);
/** Items in one answer: a page of memories, or the memories of one retrieval. */
export const limitSchema = wholeNumber('limit', 1, LIMITS.pageSize);
export const offsetSchema = z.number().int('offset must be a whole number').min(0, 'offset must not be negative');

export const metadataSchema = z
  .record(z.string(), z.unknown(), { error: 'metadata must be a JSON object' })
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= LIMITS.metadataBytes, {
    message: `metadata is larger than ${LIMITS.metadataBytes} bytes`,
  });

/** Validates with a schema; a failure becomes one BAD_USER_INPUT error naming every problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badInput(describeIssues(result.error));
  return result.data;
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 && !i.message.startsWith(String(i.path[0])) ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
