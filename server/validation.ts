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
  /** Levels of objects and arrays in metadata, the object itself being level 1. */
  metadataDepth: 32,
  /** Levels of a chat request given to injectMemory (tool schemas nest; nothing real comes near). */
  requestDepth: 64,
  importRows: 10_000,
  /** Memories one write may name as superseded by it (createMemory's supersedes). */
  supersedesIds: 100,
  pageSize: 500,
  maxTokens: 16_000,
  retentionDays: 365,
  /** The largest HTTP request body accepted (GraphQL and MCP), in bytes: yoga's own default for maxRequestBodySize. */
  requestBodyBytes: 25_000_000,
  /** Dates a memory carries: from the Unix epoch to the last instant with a four-digit year (what DateTime prints and reads). */
  earliestDate: Date.UTC(1970, 0, 1),
  latestDate: Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  /** How far ahead of the server's clock a createdAt may be: the clocks of a gateway and mnemo differ a little. */
  clockSkewMs: 5 * 60_000,
  /** The audit log's retention, in days: at least the 30 that migration 013's trigger protects, at most ten years. */
  auditRetentionDaysMin: 30,
  auditRetentionDays: 3650,
  purgeGraceDays: 365,
  /** Versions of one memory its history keeps; migrations 020 and 008 hold the same bound. */
  historyVersionsKept: 1000,
  /** Days the injection log keeps an injection's receipt (0: the log is off), and the entries it keeps per API key. */
  injectionLogDays: 90,
  injectionLogRows: 1000,
  /** The characters of an injection's query the log keeps. */
  injectionLogQueryChars: 1000,
  /** Daily tokens of the extraction model per API key. */
  extractionModelDailyTokens: 10_000_000,
  /** How old, in days, the memories a summary compacts may be asked to be: up to ten years. */
  olderThanDays: 3650,
  /** Rows one purge batch (one transaction) deletes at most. */
  purgeBatchRows: 10_000,
  /** The admin's Qdrant search test: its query, and how many hits it asks for. */
  qdrantQueryChars: 10_000,
  qdrantTopK: 100,
  /** An access token's name. */
  tokenNameChars: 100,
  /** The name of a model or of the provider serving it: a provider's model, a "provider/model" setting, the provider a gateway forwards to. */
  modelNameChars: 200,
  /** A model provider's id, part of the "provider/model" names the settings use. */
  providerIdChars: 64,
  /** Models one provider lists. */
  providerModels: 100,
  /** An API key given for a model provider. */
  providerKeyChars: 4096,
  /** The vector size a provider's embedding model may declare (OpenAI's largest is 3072). */
  embeddingDimension: 16_384,
  /** The input limit, in tokens, a provider's model may declare. */
  modelInputTokens: 1_000_000,
  /** The providers or models listed as rejecting the system role (userRoleProviders), and the length of each. */
  userRoleProviders: 100,
  userRoleProviderChars: 100,
  /** The longest part of a captured chat turn: a longer message is cut at sentence boundaries into linked parts. */
  turnPartChars: 1200,
} as const;

/**
 * Whether a string is valid Unicode. A lone UTF-16 surrogate (a JSON "\ud800" escape) has no UTF-8 form: SQLite
 * would store it as U+FFFD, so distinct names would become one and a stored name would no longer match its own.
 */
export const isWellFormed = (s: string) => s.isWellFormed();
export const notWellFormed = (what: string) => `${what} is not well-formed Unicode (it holds a lone surrogate)`;
/**
 * U+0000 is refused in every text, on both stores: PostgreSQL's text and jsonb cannot hold it, and one contract for both
 * stores means SQLite does not accept what PostgreSQL would have to turn away.
 */
export const holdsNul = (s: string) => s.includes('\0');
export const nulRefused = (what: string) => `${what} holds a NUL character (U+0000), and NUL characters are not accepted`;
/**
 * A key named __proto__ is refused wherever a caller's JSON holds it (GraphQL variables, a JSONObject written in the
 * document, an MCP tool's arguments): validation copies objects key by key, and in a copy that key becomes the
 * prototype instead of data, so it would vanish (or, nested, survive one copy and not the next) while the write
 * reports success. Refused wherever it lies, so the rule is one line to document.
 */
export const protoKeyRefused = (what: string) => `${what} holds a key named __proto__, which mnemo cannot store`;

/** Well-formed text (content, names, search words). */
export const text = (what: string) => z.string().refine(isWellFormed, notWellFormed(what));

/**
 * The one rule for names given by the caller (API keys, sessions, keys): surrounding whitespace is dropped, the rest is
 * compared byte for byte. No case folding and no Unicode normalisation: "café" composed (NFC) and decomposed (NFD)
 * are two names, as they are two byte strings to the gateway that sent them.
 */
export const normaliseIdentifier = (name: string) => name.trim();

/** A name given by the caller (an API key, a session, a key): well-formed, normalised, not empty, at most `max` characters. */
export const identifier = (what: string, max: number = LIMITS.idChars) =>
  text(what).overwrite(normaliseIdentifier).min(1, `${what} must not be empty`).max(max, `${what} is longer than ${max} characters`);

export const apiKeyIdSchema = identifier('apiKeyId');
export const sessionIdSchema = identifier('sessionId');

/** A whole number in [min, max]; out-of-range values are rejected, never clamped. */
export const wholeNumber = (what: string, min: number, max: number) =>
  z
    .number()
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be between ${min} and ${max}`)
    .max(max, `${what} must be between ${min} and ${max}`);

/** An instant a memory carries (createdAt, expiresAt), inside LIMITS' dates. */
export const memoryDate = (what: string) => {
  const range = `${what} must be between ${new Date(LIMITS.earliestDate).toISOString()} and ${new Date(LIMITS.latestDate).toISOString()}`;
  return z.date().min(new Date(LIMITS.earliestDate), range).max(new Date(LIMITS.latestDate), range);
};

/**
 * The server's clock for the parse in progress (parseInputAt, checkInputAt). A check of a time against the clock reads
 * it here rather than being built around it per call: building a zod object schema, and compiling it on its first
 * parse, cost more than checking a memory (about 1 ms, on every memory written). Parsing is synchronous, so no other
 * parse can run in between.
 */
let parseClock: number | null = null;

/** The clock of the parse in progress, for a check that compares with it (a default validFrom). */
export function parseNow(): number {
  if (parseClock === null) throw new Error('a schema that reads the clock was parsed without one (parseInputAt, checkInputAt)');
  return parseClock;
}

/** A date that is not in the future of the parse's clock, give or take the clock skew allowed. */
export const pastDate = (what: string) =>
  memoryDate(what).refine((d) => d.getTime() <= parseNow() + LIMITS.clockSkewMs, `${what} must not be in the future`);

/** Tokens of the injected memory block. */
export const maxTokensSchema = wholeNumber('maxTokens', 0, LIMITS.maxTokens);
export const retentionDaysSchema = wholeNumber('retentionDays', 1, LIMITS.retentionDays);
export const auditRetentionDaysSchema = wholeNumber('auditRetentionDays', LIMITS.auditRetentionDaysMin, LIMITS.auditRetentionDays);
export const extractionModelDailyTokensSchema = wholeNumber('extractionModelDailyTokens', 0, LIMITS.extractionModelDailyTokens);
export const purgeGraceDaysSchema = wholeNumber('purgeGraceDays', 0, LIMITS.purgeGraceDays);
export const historyVersionsKeptSchema = wholeNumber('historyVersionsKept', 0, LIMITS.historyVersionsKept);
export const injectionLogDaysSchema = wholeNumber('injectionLogDays', 0, LIMITS.injectionLogDays);
export const olderThanDaysSchema = wholeNumber('olderThanDays', 0, LIMITS.olderThanDays);
/**
 * A number a caller's code passes as an option (a timeout, a batch size): a whole number in range, or a message that
 * names what was given. For programmers' configuration, not the API's input.
 */
export function wholeOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  const error = (issue: { input: unknown }) => `${name} must be an integer ${range}, got ${String(issue.input)}`;
  return z.number({ error }).int({ error, abort: true }).min(min, { error }).max(max, { error });
}

/** Items in one answer: a page of memories, or the memories of one retrieval. */
export const limitSchema = wholeNumber('limit', 1, LIMITS.pageSize);
export const offsetSchema = z.number().int('offset must be a whole number').min(0, 'offset must not be negative');

/**
 * The range a number schema accepts, as the API's descriptions print it ("1 to 500"): taken from the schema, so what a
 * description promises is what validation enforces.
 */
export function rangeText(schema: z.ZodNumber): string {
  return `${schema.minValue} to ${schema.maxValue}`;
}

/** Any JSON object (not an array, a string or a number), before the limits of what it is for. */
export const anyJsonObject = (what: string) => z.record(z.string(), z.unknown(), { error: `${what} must be a JSON object` });

/**
 * A JSON object from the caller: well-formed text throughout, at most `maxDepth` levels deep and, when given, `maxBytes` as
 * JSON. The depth is checked first and without recursion: JSON.stringify of a value thousands of levels deep throws.
 */
export const jsonObject = (what: string, limits: { maxDepth: number; maxBytes?: number }) =>
  anyJsonObject(what).superRefine((value, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, path: [] });
    const { depth, illFormedAt } = inspectJson(value, what, limits.maxDepth);
    if (illFormedAt !== null) return fail(notWellFormed(illFormedAt));
    if (depth > limits.maxDepth) return fail(`${what} is nested deeper than ${limits.maxDepth} levels`);
    if (limits.maxBytes !== undefined && Buffer.byteLength(JSON.stringify(value)) > limits.maxBytes) {
      fail(`${what} is larger than ${limits.maxBytes} bytes`);
    }
  });

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const DATE_TIME_FORMAT = 'DateTime must be an ISO 8601 string such as 2026-01-31T12:00:00Z';

/** An instant given as an ISO 8601 string with a time zone (or a bare date, midnight UTC), parsed to a Date. */
export const dateTimeSchema = z
  .string({ error: DATE_TIME_FORMAT })
  .regex(ISO_DATE_TIME, DATE_TIME_FORMAT)
  .transform((v, ctx) => {
    const d = new Date(v);
    if (Number.isNaN(d.getTime()) || !isCalendarDay(v)) {
      ctx.addIssue({ code: 'custom', message: `"${v}" is not a valid date` });
      return z.NEVER;
    }
    return d;
  });

/** JavaScript rolls impossible days over (2026-02-30 becomes March 2) instead of rejecting them. */
function isCalendarDay(v: string): boolean {
  const [year, month, day] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export const metadataSchema = jsonObject('metadata', { maxDepth: LIMITS.metadataDepth, maxBytes: LIMITS.metadataBytes });

/**
 * The refusal for a caller's JSON arguments (GraphQL variables, an MCP tool's arguments) that hold a string or an object key
 * that is not well-formed Unicode or holds U+0000, naming where it lies ('input.memories[3].content'); null when all of it is well-formed.
 */
export function illFormedArguments(value: unknown): string | null {
  const { illFormedAt, nulAt, protoKeyIn } = inspectJson(value, '$');
  const where = (at: string) => at.replace(/\$\.?/, '');
  if (illFormedAt !== null) return notWellFormed(where(illFormedAt));
  if (nulAt !== null) return nulRefused(where(nulAt));
  if (protoKeyIn !== null) return protoKeyRefused(where(protoKeyIn) || 'the arguments object');
  return null;
}

/**
 * Walks a JSON value without recursion (any depth is safe): how deeply it nests (a scalar is 0, {} is 1), stopping once
 * past `maxDepth`, and where its first string or object key that is not well-formed lies, as a path from `root`
 * ('input.memories[3].content'; for a key, the object holding it), or null; likewise the first holding U+0000 (`nulAt`),
 * or null; and the first object holding a key named __proto__ (`protoKeyIn`), or null.
 */
export function inspectJson(value: unknown, root: string, maxDepth = Number.POSITIVE_INFINITY) {
  interface Node {
    value: unknown;
    depth: number;
    parent: Node | null;
    segment: string;
  }
  const pathOf = (node: Node) => {
    const segments: string[] = [];
    for (let n: Node | null = node; n; n = n.parent) segments.push(n.segment);
    return segments.reverse().join('');
  };
  let depth = 0;
  let protoKeyIn: string | null = null;
  let nulAt: string | null = null;
  const stack: Node[] = [{ value, depth: 0, parent: null, segment: root }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const v = node.value;
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return { depth, illFormedAt: pathOf(node), nulAt, protoKeyIn };
      if (holdsNul(v)) nulAt ??= pathOf(node);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    const level = node.depth + 1;
    depth = Math.max(depth, level);
    if (depth > maxDepth) return { depth, illFormedAt: null, nulAt, protoKeyIn };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: level, parent: node, segment: `[${i}]` });
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      if (!isWellFormed(key)) return { depth, illFormedAt: `a field name in ${pathOf(node)}`, nulAt, protoKeyIn };
      if (holdsNul(key)) nulAt ??= `a field name in ${pathOf(node)}`;
      if (key === '__proto__') protoKeyIn ??= pathOf(node);
      stack.push({ value: item, depth: level, parent: node, segment: `.${key}` });
    }
  }
  return { depth, illFormedAt: null, nulAt, protoKeyIn };
}

/** Validates with a schema; a failure becomes one BAD_USER_INPUT error naming every problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const checked = checkInput(schema, input);
  if (!checked.ok) throw badInput(checked.problems);
  return checked.value;
}

/** parseInput of a schema with checks against the server's clock (pastDate), at the clock `now`. */
export function parseInputAt<S extends z.ZodType>(schema: S, input: unknown, now: number): z.output<S> {
  const checked = checkInputAt(schema, input, now);
  if (!checked.ok) throw badInput(checked.problems);
  return checked.value;
}

/** checkInput of a schema with checks against the server's clock (pastDate), at the clock `now`. */
export function checkInputAt<S extends z.ZodType>(schema: S, input: unknown, now: number): ReturnType<typeof checkInput<S>> {
  parseClock = now;
  try {
    return checkInput(schema, input);
  } finally {
    parseClock = null;
  }
}

/**
 * Validates with a schema without throwing, for callers that report a bad value rather than refuse the whole call (one
 * row of an import, a stored setting): the value, or every problem in the words parseInput's error would use.
 */
export function checkInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problems: string } {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, problems: describeIssues(result.error) };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 && !i.message.startsWith(String(i.path[0])) ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
