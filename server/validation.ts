import type { z } from 'zod';
import { badInput } from './errors.ts';

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
