/** One HTTP call to a model provider (embeddings, rerank): the parts every provider client shares. */
import { z } from 'zod';
import { outsideErrorText } from '../redact.ts';

export type ProviderReply =
  | { kind: 'ok'; body: string }
  | { kind: 'http'; status: number; headers: Headers; detail: string }
  | { kind: 'timeout'; error: unknown }
  | { kind: 'network'; reason: string; error: unknown };

/**
 * POSTs JSON with the bearer key (none for a keyless endpoint) and a timeout, and says what happened without throwing, so each client
 * decides what to retry. Details and reasons are outside text: redacted (the key and anything shaped like a
 * secret) and shortened.
 */
export async function postToProvider(opts: {
  fetch: typeof fetch;
  endpoint: string;
  apiKey: string | null;
  body: string;
  timeoutMs: number;
}): Promise<ProviderReply> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await opts.fetch(opts.endpoint, {
      method: 'POST',
      headers: {
        ...(opts.apiKey === null ? {} : { authorization: `Bearer ${opts.apiKey}` }),
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: opts.body,
      signal,
    });
    const text = await res.text();
    if (res.ok) return { kind: 'ok', body: text };
    return {
      kind: 'http',
      status: res.status,
      headers: res.headers,
      detail: outsideErrorText(`HTTP ${res.status}: ${providerErrorMessage(text) ?? res.statusText}`, [opts.apiKey]),
    };
  } catch (error) {
    if (signal.aborted) return { kind: 'timeout', error };
    return { kind: 'network', reason: outsideErrorText(describeNetworkError(error), [opts.apiKey]), error };
  }
}

/**
 * A provider's JSON answer, checked against the schema before any of it is used, so a broken provider never
 * yields a wrong vector or ranking. `bad` turns what is wrong ("is not JSON", the first issue's message) into
 * the client's own error.
 */
export function parseProviderBody<S extends z.ZodType>(body: string, schema: S, bad: (why: string) => Error): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw bad('is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw bad(parsed.error.issues[0]?.message ?? 'does not have the expected shape');
  return parsed.data;
}

export const badIndex = (index: unknown) => `has a missing, repeated or out-of-range index (${String(index)})`;

/** A position in the request's list (inputs, documents); its upper bound is checked against the list after parsing. */
export const listIndex = z.int({ error: (issue) => badIndex(issue.input) }).nonnegative({ error: (issue) => badIndex(issue.input) });

/** `${baseUrl}/${path}` whether or not the base ends with a slash; throws TypeError on an invalid URL. */
export function endpointUrl(baseUrl: string, path: string): string {
  const url = `${baseUrl.trim().replace(/\/+$/, '')}/${path}`;
  if (!URL.canParse(url)) throw new TypeError(`Invalid base URL for the model API: ${baseUrl}`);
  return url;
}

/** What a provider put where its explanation goes: a string as it is, anything else (FastAPI's list of issues) as JSON. */
const explanation = z
  .unknown()
  .refine((v) => v !== undefined && v !== null)
  .transform((v) => (typeof v === 'string' ? v : JSON.stringify(v)));

/**
 * The error bodies providers send, tried in this order: OpenAI's `{error: {message}}`, `{error: "..."}` (any JSON
 * scalar), Cohere's `{message}`, FastAPI-style `{detail}` (Jina). An `error` object without a message falls through.
 */
const errorBody = z.union([
  z.object({ error: z.object({ message: explanation }) }).transform((b) => b.error.message),
  z.object({ error: z.union([z.string(), z.number(), z.boolean()]) }).transform((b) => String(b.error)),
  z.object({ message: explanation }).transform((b) => b.message),
  z.object({ detail: explanation }).transform((b) => b.detail),
]);

/** The provider's own explanation from an error body; else the body itself (a proxy's HTML page); null when it is empty. */
export function providerErrorMessage(body: string): string | null {
  const said = errorBody.safeParse(jsonOrUndefined(body));
  return (said.success ? said.data : body).trim() || null;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** fetch() reports network failures as "fetch failed" with the useful part (ECONNREFUSED, ...) in `cause`. */
export function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : null;
  return detail ? `${err.message} (${detail})` : err.message;
}
