import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Schemas } from '@qdrant/js-client-rest';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * A test double of the Qdrant vector database's REST API, on 127.0.0.1 at a free port, for tests that
 * cannot run a real Qdrant. It is written from Qdrant's published OpenAPI document (v1.18.x, the version of
 * the @qdrant/js-client-rest client we use), which it reads at start-up and keeps to in both directions:
 *
 * - Routing: a request is matched to the document's operation (path template + method) and dispatched on
 *   its `operationId`. Operations of the document this double does not implement answer 501.
 * - Requests: every JSON body is validated against the operation's request schema, and the query params the
 *   operation declares (`wait`, `timeout`, `ordering`, `consistency`) against theirs. Invalid → 400 with the
 *   document's ErrorResponse `{time, status: {error}, result: null}`.
 * - Responses: every JSON or text answer is checked against the operation's response schema for its status
 *   before it is sent (on by default). A drift answers 500 and is listed in `responseProblems`, so a test
 *   cannot pass on shapes the real server would not produce.
 *
 * What is NOT in the document, and is taken from Qdrant's behaviour instead: scores (Cosine similarity on
 * vectors normalised at insert, as Qdrant stores them; Dot product; Euclid and Manhattan distance, ascending),
 * filter semantics, the error wordings (e.g. "Wrong input: Vector dimension error: expected dim: 384, got 8",
 * "Not found: Collection `x` doesn't exist!"), API-key auth (401 text/plain, like Qdrant's middleware, with
 * `/`, `/healthz`, `/livez`, `/readyz` left open) and the plain-text health endpoints.
 *
 * Writes apply at once; `wait=true` answers status 'completed', otherwise 'acknowledged', as Qdrant does.
 * Faults are scripted with fault() and used up by the next matching requests.
 */
export interface QdrantDouble {
  /** Base URL for `new QdrantClient({ url })`, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  /** The key every request except the health endpoints must carry in `api-key`, when one was configured. */
  readonly apiKey?: string;
  /** Every request received, in order, including rejected and faulted ones. */
  readonly requests: RecordedRequest[];
  /** The stored collections, for assertions. Mutating them changes what the double answers. */
  readonly collections: ReadonlyMap<string, CollectionState>;
  /** Responses that did not match the document (each also answered 500). Should stay empty. */
  readonly responseProblems: string[];
  /** Scripts a fault; see QdrantFault. */
  fault(fault: QdrantFault): void;
  /** Removes every scripted fault, the not-ready state and the global delay. */
  clearFaults(): void;
  /**
   * Checks a response against the document's schema for the operation at `method path` and `status`.
   * Returns the problems found (empty when it conforms). Throws when the document has no such operation.
   */
  checkResponse(method: string, path: string, status: number, body: unknown): string[];
  close(): Promise<void>;
}

export interface QdrantDoubleOptions {
  /** Require this key in the `api-key` header (or `Authorization: Bearer`), like Qdrant's `service.api_key`. */
  apiKey?: string;
  /** Version reported by `GET /` (default '1.18.0'). */
  version?: string;
  /** Check each response against the document before sending it (default true). */
  checkResponses?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
  /** The status answered; undefined while pending, or when the connection was reset or given up. */
  status?: number;
}

/** Which requests a fault applies to: a string is an exact path, a RegExp is tested on the path. */
interface FaultTarget {
  path?: string | RegExp;
  method?: string;
  /** How many matching requests it affects (default 1; Infinity for all). */
  times?: number;
}

export type QdrantFault =
  /** Answer 503 with an ErrorResponse, as Qdrant does when a shard is unavailable. */
  | ({ type: 'unavailable' } & FaultTarget)
  /** Hold the request `ms` milliseconds (forever when omitted) before handling it, to trip client timeouts. */
  | ({ type: 'hang'; ms?: number } & FaultTarget)
  /** Destroy the connection without answering. */
  | ({ type: 'reset' } & FaultTarget)
  /** `GET /readyz` answers 503 "some shards are not ready" until clearFaults(). */
  | { type: 'not_ready' }
  /** Wait `ms` before handling every request (0 turns it off). */
  | { type: 'delay'; ms: number };

export type PointId = number | string;
export type Payload = Record<string, unknown>;

export interface StoredPoint {
  id: PointId;
  /** By vector name; the unnamed vector is ''. Cosine vectors are stored normalised, as Qdrant does. */
  vectors: Record<string, number[]>;
  payload: Payload;
  /** Operation id of the last write to this point. */
  version: number;
}

export interface VectorConfig {
  size: number;
  distance: Distance;
}

export interface CollectionState {
  name: string;
  /** The create request as sent, echoed back in CollectionInfo.config. */
  createRequest: Schemas['CreateCollection'];
  /** By vector name; an unnamed single vector is ''. */
  vectors: Map<string, VectorConfig>;
  /** By point key (see pointKey). */
  points: Map<string, StoredPoint>;
  payloadIndexes: Map<string, { data_type: Schemas['PayloadSchemaType']; params?: Schemas['PayloadSchemaParams'] }>;
}

type Distance = Schemas['Distance'];

const DEFAULT_VERSION = '1.18.0';
// Committed beside this file with its licence (see qdrant-openapi/README.md), so a fresh clone tests itself.
const SPEC_PATH = fileURLToPath(new URL('./qdrant-openapi/openapi-v1.18.x.json', import.meta.url));

export async function startQdrantDouble(options: QdrantDoubleOptions = {}): Promise<QdrantDouble> {
  const spec = loadSpec();
  const checkResponses = options.checkResponses ?? true;
  const store = new Store();
  const faults = new Faults();
  const requests: RecordedRequest[] = [];
  const responseProblems: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const version = options.version ?? DEFAULT_VERSION;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://double');
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const recorded: RecordedRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: parseLoosely(text) };
    requests.push(recorded);

    if (faults.delayMs > 0) await sleep(faults.delayMs);
    const fault = faults.take(method, url.pathname);
    if (fault?.type === 'reset') return void req.socket.destroy();
    if (fault?.type === 'hang') {
      await (fault.ms === undefined ? new Promise<void>(() => {}) : sleep(fault.ms));
      if (res.destroyed || req.socket.destroyed) return; // the client gave up first
    }

    const reply =
      fault?.type === 'unavailable'
        ? errorReply(503, 'Service unavailable: fault injected by the Qdrant test double')
        : answer(method, url, req.headers, text);
    const final = finish(method, url.pathname, reply, started);
    recorded.status = final.status;
    send(res, final);
  }

  /** Auth, routing, validation and dispatch: everything that decides the answer. */
  function answer(method: string, url: URL, headers: IncomingHttpHeaders, text: string): Reply {
    if (options.apiKey !== undefined && !OPEN_PATHS.has(url.pathname)) {
      const denied = checkApiKey(options.apiKey, headers);
      if (denied) return denied;
    }
    const route = spec.route(method, url.pathname);
    if (!route) return { status: 404, text: '' }; // actix answers unknown routes with an empty 404
    const handler = HANDLERS[route.operation.id];
    if (!handler) return errorReply(501, `The Qdrant test double does not implement ${route.operation.id}`);

    const query = spec.parseQuery(route.operation, url.searchParams);
    if ('error' in query) return errorReply(400, `Format error in query parameters: ${query.error}`);
    let body: unknown;
    if (route.operation.hasBody) {
      const parsed = parseJson(text);
      if ('error' in parsed) return errorReply(400, `Format error in JSON body: ${parsed.error}`);
      const invalid = spec.bodyErrors(route.operation, parsed.value);
      if (invalid) return errorReply(400, `Format error in JSON body: ${invalid}`);
      body = parsed.value;
    }
    try {
      return handler({ params: route.params, query: query.values, body, store, faults, version });
    } catch (error) {
      if (error instanceof QdrantError) return errorReply(error.status, error.message);
      throw error;
    }
  }

  /** Stamps the envelope's time and checks the answer against the document. */
  function finish(method: string, path: string, reply: Reply, started: number): Reply {
    if (reply.json && 'time' in reply.json) reply.json.time = (performance.now() - started) / 1000;
    if (!checkResponses) return reply;
    const route = spec.route(method, path);
    if (!route || reply.status === 501 || reply.status === 401) return reply; // nothing in the document to check
    const problems = spec.responseErrors(route.operation, reply.status, reply.json ?? reply.text);
    if (problems.length === 0) return reply;
    const problem = `${method} ${path} → ${reply.status}: ${problems.join('; ')}`;
    responseProblems.push(problem);
    return errorReply(500, `Qdrant test double drifted from the OpenAPI document: ${problem}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, errorReply(500, `Qdrant test double failed: ${String(error)}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: options.apiKey,
    requests,
    collections: store.collections,
    responseProblems,
    fault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    checkResponse(method, path, status, body) {
      const route = spec.route(method, path);
      if (!route) throw new Error(`The OpenAPI document has no operation for ${method} ${path}`);
      return spec.responseErrors(route.operation, status, body);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections(); // the client keeps connections alive; hung requests hold theirs
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// HTTP plumbing

interface Reply {
  status: number;
  json?: Record<string, unknown>;
  text?: string;
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.json !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
  } else {
    res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.text ?? '');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseLoosely(text: string): unknown {
  if (text === '') return undefined;
  const parsed = parseJson(text);
  return 'value' in parsed ? parsed.value : text;
}

function parseJson(text: string): { value: unknown } | { error: string } {
  // serde's wording for an empty body, which is what Qdrant reports
  if (text.trim() === '') return { error: 'EOF while parsing a value at line 1 column 0' };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The document's success envelope. `time` is filled in by finish(). */
function ok(result: unknown): Reply {
  return { status: 200, json: { usage: null, time: 0, status: 'ok', result } };
}

/** The document's ErrorResponse. */
function errorReply(status: number, error: string): Reply {
  return { status, json: { time: 0, status: { error }, result: null } };
}

class QdrantError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const badInput = (message: string) => new QdrantError(400, `Wrong input: ${message}`);
const notFound = (message: string) => new QdrantError(404, `Not found: ${message}`);
const notImplemented = (what: string) => new QdrantError(501, `The Qdrant test double does not implement ${what}`);

// Qdrant's auth middleware leaves these open so that probes need no key.
const OPEN_PATHS = new Set(['/', '/healthz', '/livez', '/readyz']);

/** Qdrant answers both a missing and a wrong key with 401 and a plain-text reason. */
function checkApiKey(apiKey: string, headers: IncomingHttpHeaders): Reply | undefined {
  const bearer = headers.authorization?.startsWith('Bearer ') ? headers.authorization.slice('Bearer '.length) : undefined;
  const header = headers['api-key'];
  const given = (Array.isArray(header) ? header[0] : header) ?? bearer;
  if (given === undefined) return { status: 401, text: 'Must provide an API key or an Authorization bearer token' };
  if (given !== apiKey) return { status: 401, text: 'Invalid API key or JWT' };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Faults

type TargetedFault = Extract<QdrantFault, { type: 'unavailable' | 'hang' | 'reset' }>;

class Faults {
  private queue: { fault: TargetedFault; left: number }[] = [];
  delayMs = 0;
  notReady = false;

  add(fault: QdrantFault): void {
    if (fault.type === 'not_ready') this.notReady = true;
    else if (fault.type === 'delay') this.delayMs = fault.ms;
    else this.queue.push({ fault, left: fault.times ?? 1 });
  }

  clear(): void {
    this.queue = [];
    this.delayMs = 0;
    this.notReady = false;
  }

  /** The first scripted fault that applies to this request, used up by one. */
  take(method: string, path: string): TargetedFault | undefined {
    const entry = this.queue.find(({ fault }) => appliesTo(fault, method, path));
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left <= 0) this.queue.splice(this.queue.indexOf(entry), 1);
    return entry.fault;
  }
}

function appliesTo(target: FaultTarget, method: string, path: string): boolean {
  if (target.method !== undefined && target.method.toUpperCase() !== method) return false;
  if (target.path === undefined) return true;
  return typeof target.path === 'string' ? target.path === path : target.path.test(path);
}

// ---------------------------------------------------------------------------------------------------------
// The OpenAPI document: routing and validation

interface Operation {
  id: string;
  method: string;
  template: string;
  pattern: RegExp;
  paramNames: string[];
  /** Literal path segments; the most specific template wins when several match. */
  specificity: number;
  hasBody: boolean;
  definition: OpenApiOperation;
}

interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

interface Spec {
  route(method: string, path: string): { operation: Operation; params: Record<string, string> } | undefined;
  parseQuery(operation: Operation, search: URLSearchParams): { values: Record<string, unknown> } | { error: string };
  bodyErrors(operation: Operation, body: unknown): string | undefined;
  responseErrors(operation: Operation, status: number, body: unknown): string[];
}

// Compiling the document's ~400 schemas takes a moment, so every double in a process shares one Spec.
let sharedSpec: Spec | undefined;

function loadSpec(): Spec {
  sharedSpec ??= buildSpec(JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument);
  return sharedSpec;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
}

function buildSpec(doc: OpenApiDocument): Spec {
  const operations = listOperations(doc);
  const definitions = Object.fromEntries(Object.entries(doc.components.schemas).map(([name, s]) => [name, toJsonSchema(s)]));
  const strictAjv = makeAjv(definitions, false);
  // Query params arrive as strings; this instance coerces them (in place) to the declared types, so handlers
  // see `wait` as a boolean.
  const queryAjv = makeAjv(definitions, true);
  const describe = (errors: ErrorObject[] | null | undefined, dataVar: string) => strictAjv.errorsText(errors, { dataVar });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ajv: Ajv, key: string, schema: () => unknown): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema()) as object);
      compiled.set(key, validate);
    }
    return validate;
  };

  return {
    route(method, path) {
      const candidates = operations.filter((op) => op.method === method && op.pattern.test(path));
      const operation = candidates.sort((a, b) => b.specificity - a.specificity)[0];
      if (!operation) return undefined;
      const values = operation.pattern.exec(path)?.slice(1) ?? [];
      const params = Object.fromEntries(operation.paramNames.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
      return { operation, params };
    },

    parseQuery(operation, search) {
      const declared = (operation.definition.parameters ?? []).filter((p) => p.in === 'query');
      const values: Record<string, unknown> = {};
      for (const { name } of declared) if (search.has(name)) values[name] = search.get(name);
      const schema = () => ({ type: 'object', properties: Object.fromEntries(declared.map((p) => [p.name, p.schema])) });
      const validate = validator(queryAjv, `${operation.id} query`, schema);
      return validate(values) ? { values } : { error: describe(validate.errors, 'query') };
    },

    bodyErrors(operation, body) {
      const schema = operation.definition.requestBody?.content['application/json']?.schema;
      if (schema === undefined) return undefined;
      const validate = validator(strictAjv, `${operation.id} body`, () => schema);
      return validate(body) ? undefined : describe(validate.errors, 'body');
    },

    responseErrors(operation, status, body) {
      const responses = operation.definition.responses;
      const response = responses[String(status)] ?? responses[`${String(status).charAt(0)}XX`] ?? responses.default;
      // Some answers the server gives are not in the document (e.g. /readyz's 503): nothing to check them against.
      if (!response) return [];
      const [mediaType, content] = Object.entries(response.content ?? {})[0] ?? [];
      if (!mediaType || !content) return [];
      if (mediaType === 'application/json' && typeof body === 'string') return [`expected JSON, got text "${body}"`];
      const validate = validator(strictAjv, `${operation.id} ${status} ${mediaType}`, () => content.schema);
      return validate(body) ? [] : [describe(validate.errors, 'response')];
    },
  };
}

function listOperations(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, definition]): Operation => {
      const segments = template.split('/').slice(1);
      const paramNames = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
      const source = segments.map((s) => (s.startsWith('{') ? '([^/]+)' : escapeRegExp(s))).join('/');
      return {
        id: definition.operationId,
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^/${source}$`),
        paramNames,
        specificity: segments.length - paramNames.length,
        hasBody: definition.requestBody !== undefined,
        definition,
      };
    }),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];

/**
 * Turns an OpenAPI 3.0 schema into plain JSON Schema for ajv. Two OpenAPI-isms need care:
 * - `nullable: true` beside a `type` means "or null". The document also uses a bare `{ nullable: true }` as
 *   the second branch of `anyOf: [{ $ref: X }, { nullable: true }]` to mean "X or null"; read literally (as
 *   OpenAPI 3.0.3 says, nullable without type does nothing) that branch would accept anything, so it
 *   becomes `{ type: 'null' }`.
 * - `$ref: '#/components/schemas/X'` points into the document; the schemas are registered as `qdrant`'s
 *   definitions, so refs are rewritten to `qdrant#/definitions/X`.
 * `example` is an OpenAPI annotation that strict ajv would reject, so it is dropped.
 */
function toJsonSchema(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'nullable') continue;
    if (key === '$ref') out[key] = String(value).replace('#/components/schemas/', 'qdrant#/definitions/');
    else if (key === 'properties' && isRecord(value)) out[key] = mapValues(value, toJsonSchema);
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(toJsonSchema);
    else if (key === 'items' || key === 'additionalProperties' || key === 'not') out[key] = toJsonSchema(value);
    else out[key] = value;
  }
  if (node.nullable !== true) return out;
  if ('type' in out) {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  if ('$ref' in out || SCHEMA_LISTS.some((key) => key in out)) return { anyOf: [out, { type: 'null' }] };
  return { ...out, type: 'null' };
}

function makeAjv(definitions: Record<string, unknown>, coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true, coerceTypes });
  // The document's number formats name Rust types; their ranges are already given by minimum/maximum.
  for (const format of ['float', 'double', 'uint', 'uint8', 'uint32', 'uint64', 'int64']) {
    ajv.addFormat(format, { type: 'number', validate: () => true });
  }
  ajv.addFormat('uuid', (text: string) => parseUuid(text) !== undefined);
  // Qdrant accepts RFC 3339 and looser forms ("2024-01-02 03:04:05", "2024-01-02").
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)));
  for (const format of ['partial-date-time', 'uri', 'binary']) ajv.addFormat(format, () => true);
  ajv.addSchema({ $id: 'qdrant', definitions });
  return ajv;
}

// ---------------------------------------------------------------------------------------------------------
// Storage and semantics

class Store {
  readonly collections = new Map<string, CollectionState>();
  private operations = 0;

  /** Qdrant numbers update operations; the number is the UpdateResult's operation_id and the points' version. */
  nextOperation(): number {
    this.operations += 1;
    return this.operations;
  }

  get(name: string): CollectionState {
    const collection = this.collections.get(name);
    if (!collection) throw notFound(`Collection \`${name}\` doesn't exist!`);
    return collection;
  }
}

/** Ids are unsigned integers or UUIDs; UUIDs are kept in hyphenated lower case, as Qdrant returns them. */
function normaliseId(id: PointId): PointId {
  return typeof id === 'number' ? id : (parseUuid(id) ?? id);
}

function pointKey(id: PointId): string {
  return String(normaliseId(id));
}

function parseUuid(text: string): string | undefined {
  const hex = text
    .toLowerCase()
    .replace(/^urn:uuid:/, '')
    .replace(/^\{(.*)\}$/, '$1');
  const compact = hex.replaceAll('-', '');
  const hyphenated = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(hex);
  if (!hyphenated && !/^[0-9a-f]{32}$/.test(hex)) return undefined;
  const part = (from: number, to?: number) => compact.slice(from, to);
  return `${part(0, 8)}-${part(8, 12)}-${part(12, 16)}-${part(16, 20)}-${part(20)}`;
}

/** Qdrant orders ids with all integers before all UUIDs. */
function compareIds(a: PointId, b: PointId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Metric {
  score(a: number[], b: number[]): number;
  /** Similarities rank high first; distances rank low first (and score_threshold is then an upper bound). */
  higherIsBetter: boolean;
}

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

const METRICS: Record<Distance, Metric> = {
  // Qdrant normalises Cosine vectors on the way in, so their dot product is the cosine similarity.
  Cosine: { score: dot, higherIsBetter: true },
  Dot: { score: dot, higherIsBetter: true },
  Euclid: { score: (a, b) => Math.sqrt(a.reduce((sum, x, i) => sum + (x - (b[i] ?? 0)) ** 2, 0)), higherIsBetter: false },
  Manhattan: { score: (a, b) => a.reduce((sum, x, i) => sum + Math.abs(x - (b[i] ?? 0)), 0), higherIsBetter: false },
};

function normalise(vector: number[]): number[] {
  const norm = Math.sqrt(dot(vector, vector));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

/** Checks a dense vector against the collection's config and stores it the way Qdrant would. */
function prepareVector(collection: CollectionState, name: string, vector: unknown): number[] {
  const config = collection.vectors.get(name);
  if (!config) throw badInput(`Not existing vector name error: ${name}`);
  if (!Array.isArray(vector) || !vector.every((x) => typeof x === 'number')) {
    throw notImplemented('sparse, multi-vector or inference inputs (only dense vectors)');
  }
  if (vector.length !== config.size) {
    throw badInput(`Vector dimension error: expected dim: ${config.size}, got ${vector.length}`);
  }
  return config.distance === 'Cosine' ? normalise(vector) : [...vector];
}

/** A point's vector input: a bare array is the unnamed vector, an object maps names to vectors. */
function prepareVectors(collection: CollectionState, input: unknown): Record<string, number[]> {
  if (Array.isArray(input)) return { '': prepareVector(collection, '', input) };
  // Inference inputs (Document, Image, InferenceObject) carry strings, where named vectors carry arrays.
  if (!isRecord(input) || Object.values(input).some((value) => typeof value !== 'object')) {
    throw notImplemented('inference inputs');
  }
  return mapValues(input, (vector, name) => prepareVector(collection, name, vector));
}

// Filters ------------------------------------------------------------------------------------------------

interface Filter {
  must?: Condition | Condition[] | null;
  should?: Condition | Condition[] | null;
  must_not?: Condition | Condition[] | null;
  min_should?: { conditions: Condition[]; min_count: number } | null;
}

interface FieldCondition {
  key: string;
  match?: { value?: unknown; any?: unknown[]; except?: unknown[]; text?: string; text_any?: string; phrase?: string } | null;
  range?: Bounds | null;
  values_count?: Bounds | null;
  is_empty?: boolean | null;
  is_null?: boolean | null;
  geo_bounding_box?: unknown;
  geo_radius?: unknown;
  geo_polygon?: unknown;
}

type Condition =
  | FieldCondition
  | { is_empty: { key: string } }
  | { is_null: { key: string } }
  | { has_id: PointId[] }
  | { has_vector: string }
  | { nested: { key: string; filter: Filter } }
  | Filter;

const asList = <T>(value: T | T[] | null | undefined): T[] => (value == null ? [] : Array.isArray(value) ? value : [value]);

function matchesFilter(point: StoredPoint, filter: Filter | null | undefined): boolean {
  if (!filter) return true;
  const holds = (condition: Condition) => matchesCondition(point, condition);
  const should = asList(filter.should);
  const minShould = filter.min_should;
  return (
    asList(filter.must).every(holds) &&
    !asList(filter.must_not).some(holds) &&
    (should.length === 0 || should.some(holds)) &&
    (!minShould || minShould.conditions.filter(holds).length >= minShould.min_count)
  );
}

function matchesCondition(point: StoredPoint, condition: Condition): boolean {
  if ('key' in condition) return matchesField(point.payload, condition);
  if ('is_empty' in condition) return isEmpty(valuesAt(point.payload, condition.is_empty.key));
  if ('is_null' in condition) return isNull(valuesAt(point.payload, condition.is_null.key));
  if ('has_id' in condition) return condition.has_id.some((id) => pointKey(id) === pointKey(point.id));
  if ('has_vector' in condition) return condition.has_vector in point.vectors;
  if ('nested' in condition) {
    const { key, filter } = condition.nested;
    // Every condition of a nested filter must hold for one and the same element of the array.
    const holds = (element: unknown) => isRecord(element) && matchesFilter({ ...point, payload: element }, filter);
    return elements(valuesAt(point.payload, key)).some(holds);
  }
  return matchesFilter(point, condition);
}

/**
 * Follows Qdrant's condition checker (segment/src/payload_storage/condition_checker.rs): `values_count`,
 * `is_empty` and `is_null` look at the stored value as a whole and, when set, decide alone; otherwise the
 * field holds when one value (or array element) passes `match` or `range` (the two are OR-ed). A missing
 * field passes none of these except `is_empty`, `is_null: false` and a `values_count` that admits 0.
 */
function matchesField(payload: Payload, condition: FieldCondition): boolean {
  if (condition.geo_bounding_box || condition.geo_radius || condition.geo_polygon) throw notImplemented('geo conditions');
  const found = valuesAt(payload, condition.key);
  if (condition.values_count) return inRange(countValues(found), condition.values_count);
  if (condition.is_empty != null) return isEmpty(found) === condition.is_empty;
  if (condition.is_null != null) return isNull(found) === condition.is_null;
  const { match, range } = condition;
  if (!match && !range) throw badInput(`condition on \`${condition.key}\` has nothing to check`);
  return elements(found).some((value) => (!!match && matchesValue(value, match)) || (!!range && inRange(value, range)));
}

function matchesValue(value: unknown, match: NonNullable<FieldCondition['match']>): boolean {
  if ('value' in match) return value === match.value;
  if (match.any) return match.any.includes(value);
  // Values of another type than the list's count as "not in it"; null never matches.
  if (match.except) return value !== null && !match.except.includes(value);
  // Without a full-text index Qdrant matches text and phrases as substrings, text_any word by word.
  const text = match.text ?? match.phrase;
  if (typeof text === 'string') return typeof value === 'string' && value.includes(text);
  if (typeof match.text_any === 'string') {
    const words = match.text_any.split(/\s+/).filter((word) => word !== '');
    return typeof value === 'string' && words.some((word) => value.includes(word));
  }
  throw notImplemented(`match ${Object.keys(match).join(', ')}`);
}

type Bounds = Partial<Record<'lt' | 'gt' | 'lte' | 'gte', number | string | null>>;

/** A range with string bounds is a DatetimeRange and only matches datetime strings; otherwise only numbers. */
function inRange(value: unknown, range: Bounds): boolean {
  const datetime = Object.values(range).some((bound) => typeof bound === 'string');
  const toNumber = (x: unknown) => {
    if (datetime) return typeof x === 'string' ? Date.parse(x) : Number.NaN;
    return typeof x === 'number' ? x : Number.NaN;
  };
  const v = toNumber(value);
  if (Number.isNaN(v)) return false;
  const bound = (key: keyof Bounds) => (range[key] == null ? undefined : toNumber(range[key]));
  const [lt, gt, lte, gte] = [bound('lt'), bound('gt'), bound('lte'), bound('gte')];
  return (lt === undefined || v < lt) && (gt === undefined || v > gt) && (lte === undefined || v <= lte) && (gte === undefined || v >= gte);
}

/** Missing, null and [] are empty; [null] is not. */
function isEmpty(found: unknown[]): boolean {
  return found.every((value) => value === null || (Array.isArray(value) && value.length === 0));
}

/** null and arrays holding a null are null; a missing field is not. */
function isNull(found: unknown[]): boolean {
  return found.some((value) => value === null || (Array.isArray(value) && value.includes(null)));
}

function countValues(found: unknown[]): number {
  return found.reduce<number>((sum, value) => sum + (Array.isArray(value) ? value.length : value === null ? 0 : 1), 0);
}

/** Arrays count as their elements. */
function elements(found: unknown[]): unknown[] {
  return found.flatMap((value) => (Array.isArray(value) ? value : [value]));
}

/**
 * The values stored at a payload key, as stored (arrays stay arrays): `a.b` walks objects, `a[].b` walks
 * every element of the array `a`. Empty when the key is missing.
 */
function valuesAt(payload: Payload, key: string): unknown[] {
  let current: unknown[] = [payload];
  for (const segment of key.split('.')) {
    const name = segment.endsWith('[]') ? segment.slice(0, -2) : segment;
    current = current.flatMap((node) => (isRecord(node) && name in node ? [node[name]] : []));
    if (segment.endsWith('[]')) current = elements(current);
  }
  return current;
}

// Result shaping -----------------------------------------------------------------------------------------

type WithPayload = boolean | string[] | { include: string | string[] } | { exclude: string | string[] } | null | undefined;
type WithVector = boolean | string[] | null | undefined;

function selectPayload(payload: Payload, selector: WithPayload): Payload | undefined {
  if (!selector) return undefined;
  if (selector === true) return payload;
  const keep = (keys: string[], wanted: boolean) =>
    Object.fromEntries(Object.entries(payload).filter(([key]) => keys.includes(key) === wanted));
  if (Array.isArray(selector)) return keep(selector, true);
  if ('include' in selector) return keep(asList(selector.include), true);
  return keep(asList(selector.exclude), false);
}

function selectVectors(point: StoredPoint, selector: WithVector): Schemas['VectorStructOutput'] | undefined {
  if (!selector) return undefined;
  const names = selector === true ? Object.keys(point.vectors) : selector;
  // The unnamed vector is answered bare, named ones as a map, as Qdrant does.
  if (names.length === 1 && names[0] === '' && point.vectors['']) return point.vectors[''];
  return Object.fromEntries(names.filter((name) => point.vectors[name]).map((name) => [name, point.vectors[name] ?? []]));
}

function toRecord(point: StoredPoint, withPayload: WithPayload, withVector: WithVector): Schemas['Record'] {
  const payload = selectPayload(point.payload, withPayload);
  const vector = selectVectors(point, withVector);
  return { id: point.id, ...(payload && { payload }), ...(vector && { vector }) };
}

function toScoredPoint(point: StoredPoint, score: number, withPayload: WithPayload, withVector: WithVector): Schemas['ScoredPoint'] {
  return { ...toRecord(point, withPayload, withVector), version: point.version, score };
}

// Search ---------------------------------------------------------------------------------------------------

interface NearestRequest {
  vector: number[];
  using: string;
  filter?: Filter | null;
  limit: number;
  offset: number;
  scoreThreshold?: number | null;
  withPayload: WithPayload;
  withVector: WithVector;
  excludeId?: PointId;
}

/** Exact kNN over the points that pass the filter; ties are broken by id so results are stable. */
function nearest(collection: CollectionState, request: NearestRequest): Schemas['ScoredPoint'][] {
  const query = prepareVector(collection, request.using, request.vector);
  const metric = METRICS[collection.vectors.get(request.using)?.distance ?? 'Cosine'];
  const threshold = request.scoreThreshold;
  const excluded = request.excludeId === undefined ? undefined : pointKey(request.excludeId);
  const passes = (score: number) => threshold == null || (metric.higherIsBetter ? score >= threshold : score <= threshold);
  return [...collection.points.values()]
    .filter((point) => point.vectors[request.using] && (excluded === undefined || pointKey(point.id) !== excluded))
    .filter((point) => matchesFilter(point, request.filter))
    .map((point) => ({ point, score: metric.score(query, point.vectors[request.using] ?? []) }))
    .filter(({ score }) => passes(score))
    .sort((a, b) => (metric.higherIsBetter ? b.score - a.score : a.score - b.score) || compareIds(a.point.id, b.point.id))
    .slice(request.offset, request.offset + request.limit)
    .map(({ point, score }) => toScoredPoint(point, score, request.withPayload, request.withVector));
}

function pointsInIdOrder(collection: CollectionState, filter: Filter | null | undefined): StoredPoint[] {
  return [...collection.points.values()].filter((point) => matchesFilter(point, filter)).sort((a, b) => compareIds(a.id, b.id));
}

// ---------------------------------------------------------------------------------------------------------
// Operation handlers, by the document's operationId

interface HandlerContext {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  store: Store;
  faults: Faults;
  version: string;
}

type Handler = (ctx: HandlerContext) => Reply;

const collectionOf = (ctx: HandlerContext) => ctx.store.get(ctx.params.collection_name ?? '');

function updated(ctx: HandlerContext, operationId: number): Reply {
  const result: Schemas['UpdateResult'] = {
    operation_id: operationId,
    status: ctx.query.wait === true ? 'completed' : 'acknowledged',
  };
  return ok(result);
}

const HANDLERS: Record<string, Handler> = {
  root: (ctx) => ({ status: 200, json: { title: 'qdrant - vector search engine', version: ctx.version, commit: null } }),
  healthz: () => ({ status: 200, text: 'healthz check passed' }),
  livez: () => ({ status: 200, text: 'healthz check passed' }),
  readyz: (ctx) =>
    ctx.faults.notReady ? { status: 503, text: 'some shards are not ready' } : { status: 200, text: 'all shards are ready' },

  get_collections: (ctx) => ok({ collections: [...ctx.store.collections.keys()].map((name) => ({ name })) }),
  collection_exists: (ctx) => ok({ exists: ctx.store.collections.has(ctx.params.collection_name ?? '') }),
  get_collection: (ctx) => ok(collectionInfo(collectionOf(ctx))),
  create_collection: createCollection,
  delete_collection: (ctx) => ok(ctx.store.collections.delete(ctx.params.collection_name ?? '')),
  create_field_index: createFieldIndex,
  delete_field_index: (ctx) => {
    collectionOf(ctx).payloadIndexes.delete(ctx.params.field_name ?? '');
    return updated(ctx, ctx.store.nextOperation());
  },

  upsert_points: upsertPoints,
  delete_points: deletePoints,
  set_payload: (ctx) => writePayload(ctx, 'merge'),
  overwrite_payload: (ctx) => writePayload(ctx, 'replace'),

  get_point: getPoint,
  get_points: getPoints,
  count_points: countPoints,
  scroll_points: scrollPoints,
  query_points: queryPoints,
  search_points: searchPoints,
};

function createCollection(ctx: HandlerContext): Reply {
  const name = ctx.params.collection_name ?? '';
  if (ctx.store.collections.has(name)) throw badInput(`Collection \`${name}\` already exists!`);
  const request = ctx.body as Schemas['CreateCollection'];
  if (request.sparse_vectors && Object.keys(request.sparse_vectors).length > 0) throw notImplemented('sparse vectors');
  const vectors = new Map<string, VectorConfig>();
  const config = request.vectors as Record<string, unknown> | undefined;
  // VectorsConfig is one VectorParams (the unnamed vector) or a map of name → VectorParams.
  const single = config && typeof config.size === 'number' && typeof config.distance === 'string';
  const entries = single ? [['', config]] : Object.entries(config ?? {});
  for (const [vectorName, params] of entries as [string, Schemas['VectorParams']][]) {
    if (params.multivector_config) throw notImplemented('multi-vectors');
    vectors.set(vectorName, { size: params.size, distance: params.distance });
  }
  ctx.store.collections.set(name, { name, createRequest: request, vectors, points: new Map(), payloadIndexes: new Map() });
  return ok(true);
}

function collectionInfo(collection: CollectionState): Schemas['CollectionInfo'] {
  const request = collection.createRequest;
  const payloadSchema = Object.fromEntries(
    [...collection.payloadIndexes].map(([field, index]) => {
      const points = [...collection.points.values()].filter((point) => !isEmpty(valuesAt(point.payload, field))).length;
      return [field, { data_type: index.data_type, ...(index.params && { params: index.params }), points }];
    }),
  );
  return {
    status: 'green',
    optimizer_status: 'ok',
    indexed_vectors_count: 0,
    points_count: collection.points.size,
    segments_count: 2,
    config: {
      params: {
        vectors: request.vectors ?? {},
        shard_number: request.shard_number ?? 1,
        replication_factor: request.replication_factor ?? 1,
        write_consistency_factor: request.write_consistency_factor ?? 1,
        on_disk_payload: request.on_disk_payload ?? true,
      },
      // Qdrant's defaults, overlaid with what the create request asked for.
      hnsw_config: {
        m: 16,
        ef_construct: 100,
        full_scan_threshold: 10000,
        max_indexing_threads: 0,
        on_disk: false,
        ...withoutNulls(request.hnsw_config),
      },
      optimizer_config: {
        deleted_threshold: 0.2,
        vacuum_min_vector_number: 1000,
        default_segment_number: 0,
        max_segment_size: null,
        memmap_threshold: null,
        indexing_threshold: 10000,
        flush_interval_sec: 5,
        max_optimization_threads: null,
        ...withoutNulls(request.optimizers_config),
      },
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0, ...withoutNulls(request.wal_config) },
      quantization_config: request.quantization_config ?? null,
      // Qdrant 1.18 echoes the collection's metadata in its config.
      ...(request.metadata ? { metadata: request.metadata } : {}),
    },
    payload_schema: payloadSchema,
  };
}

function createFieldIndex(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  const { field_name: field, field_schema: schema } = ctx.body as Schemas['CreateFieldIndex'];
  if (schema == null) {
    // Qdrant infers the type from stored values; with none stored it cannot.
    const stored = [...collection.points.values()].flatMap((point) => elements(valuesAt(point.payload, field)));
    const inferred = inferSchemaType(stored.find((value) => value !== null));
    if (!inferred) throw new QdrantError(400, `Bad request: Can't infer type of field ${field}`);
    collection.payloadIndexes.set(field, { data_type: inferred });
  } else if (typeof schema === 'string') {
    collection.payloadIndexes.set(field, { data_type: schema });
  } else {
    const params = schema as Schemas['PayloadSchemaParams'];
    collection.payloadIndexes.set(field, { data_type: params.type as Schemas['PayloadSchemaType'], params });
  }
  return updated(ctx, ctx.store.nextOperation());
}

function inferSchemaType(sample: unknown): Schemas['PayloadSchemaType'] | undefined {
  if (typeof sample === 'string') return 'keyword';
  if (typeof sample === 'boolean') return 'bool';
  if (typeof sample === 'number') return Number.isInteger(sample) ? 'integer' : 'float';
  return undefined;
}

interface PointInput {
  id: PointId;
  vector: unknown;
  payload?: Payload | null;
}

/** The points of a PointsList or PointsBatch, in the same form. */
function pointInputs(body: Schemas['PointInsertOperations']): PointInput[] {
  if ('points' in body) return body.points as PointInput[];
  const { ids, vectors, payloads } = body.batch as { ids: PointId[]; vectors: unknown; payloads?: (Payload | null)[] | null };
  // Batch vectors are a list (the unnamed vector) or a map of name → list, one entry per id.
  const vectorAt = (i: number): unknown =>
    Array.isArray(vectors) ? vectors[i] : mapValues(vectors as Record<string, unknown[]>, (list) => list[i]);
  const lists = Array.isArray(vectors) ? [vectors] : Object.values(vectors as Record<string, unknown[]>);
  const lengths = lists.map((list) => list.length);
  if (lengths.some((length) => length !== ids.length)) throw badInput('number of ids and vectors must be equal');
  return ids.map((id, i) => ({ id, vector: vectorAt(i), payload: payloads?.[i] ?? null }));
}

function upsertPoints(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  const body = ctx.body as Schemas['PointInsertOperations'] & { update_filter?: Filter | null; update_mode?: string | null };
  if (body.shard_key != null) throw badInput('Shard key specified, but the collection does not use custom sharding');
  // Check every point before storing any: Qdrant rejects the whole request.
  const prepared = pointInputs(body).map((input) => ({ input, vectors: prepareVectors(collection, input.vector) }));
  const operation = ctx.store.nextOperation();
  for (const { input, vectors } of prepared) {
    const id = normaliseId(input.id);
    const existing = collection.points.get(pointKey(id));
    if (existing ? body.update_mode === 'insert_only' : body.update_mode === 'update_only') continue;
    if (existing && body.update_filter && !matchesFilter(existing, body.update_filter)) continue;
    collection.points.set(pointKey(id), { id, vectors, payload: input.payload ?? {}, version: operation });
  }
  return updated(ctx, operation);
}

interface Selector {
  points?: PointId[] | null;
  filter?: Filter | null;
}

/** The points a PointsSelector or SetPayload names: by ids (which must exist) or by filter. */
function selectPoints(collection: CollectionState, selector: Selector, idsMustExist: boolean): StoredPoint[] {
  if (selector.points) {
    const found = selector.points.map((id) => collection.points.get(pointKey(id)));
    const missing = selector.points.find((_, i) => !found[i]);
    if (idsMustExist && missing !== undefined) throw notFound(`No point with id ${String(missing)} found`);
    return found.filter((point): point is StoredPoint => point !== undefined);
  }
  if (selector.filter) return pointsInIdOrder(collection, selector.filter);
  throw new QdrantError(400, 'Format error in JSON body: Either list of point ids or filter must be provided');
}

function deletePoints(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  for (const point of selectPoints(collection, ctx.body as Selector, false)) collection.points.delete(pointKey(point.id));
  return updated(ctx, ctx.store.nextOperation());
}

function writePayload(ctx: HandlerContext, mode: 'merge' | 'replace'): Reply {
  const collection = collectionOf(ctx);
  const { payload, key, ...selector } = ctx.body as Selector & { payload: Payload; key?: string | null };
  const points = selectPoints(collection, selector, true);
  const operation = ctx.store.nextOperation();
  for (const point of points) {
    point.version = operation;
    if (mode === 'replace') point.payload = structuredClone(payload);
    else if (key) setAt(point.payload, key, payload);
    else Object.assign(point.payload, structuredClone(payload));
  }
  return updated(ctx, operation);
}

/** `key` of set_payload: merge into the object at that (dotted) path, creating it when missing. */
function setAt(payload: Payload, key: string, values: Payload): void {
  let node: Payload = payload;
  for (const segment of key.split('.')) {
    if (!isRecord(node[segment])) node[segment] = {};
    node = node[segment] as Payload;
  }
  Object.assign(node, structuredClone(values));
}

function getPoint(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  const raw = ctx.params.id ?? '';
  const id = /^\d+$/.test(raw) ? Number(raw) : parseUuid(raw);
  if (id === undefined) throw new QdrantError(400, `Format error in path parameters: cannot parse "${raw}" as a point id`);
  const point = collection.points.get(pointKey(id));
  if (!point) throw notFound(`No point with id ${raw} found`);
  return ok(toRecord(point, true, true));
}

function getPoints(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  const request = ctx.body as Schemas['PointRequest'];
  const points = selectPoints(collection, { points: request.ids }, false);
  const withPayload = (request.with_payload ?? true) as WithPayload; // defaults to true here
  return ok(points.map((point) => toRecord(point, withPayload, request.with_vector as WithVector)));
}

function countPoints(ctx: HandlerContext): Reply {
  const request = ctx.body as { filter?: Filter | null };
  const result: Schemas['CountResult'] = { count: pointsInIdOrder(collectionOf(ctx), request.filter).length };
  return ok(result);
}

function scrollPoints(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  // (the client's generated types read the document's bare `nullable` branches as Record<string, unknown>)
  type Request = Omit<Schemas['ScrollRequest'], 'filter' | 'offset'> & { filter?: Filter | null; offset?: PointId | null };
  const request = ctx.body as Request;
  if (request.order_by != null) throw notImplemented('scroll with order_by');
  const limit = request.limit ?? 10;
  const from = request.offset == null ? undefined : normaliseId(request.offset);
  const matching = pointsInIdOrder(collection, request.filter);
  const page = from === undefined ? matching : matching.filter((point) => compareIds(point.id, from) >= 0);
  const withPayload = (request.with_payload ?? true) as WithPayload; // defaults to true here
  // The id after the page is where the next page starts; Qdrant answers null when nothing is left.
  const result: Schemas['ScrollResult'] = {
    points: page.slice(0, limit).map((point) => toRecord(point, withPayload, request.with_vector as WithVector)),
    next_page_offset: page[limit]?.id ?? null,
  };
  return ok(result);
}

type QueryBody = Omit<Schemas['QueryRequest'], 'filter'> & { filter?: Filter | null };

function queryPoints(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  const request = ctx.body as QueryBody;
  if (request.prefetch != null) throw notImplemented('prefetch');
  if (request.lookup_from != null) throw notImplemented('lookup_from');
  const limit = request.limit ?? 10;
  const offset = request.offset ?? 0;
  const withPayload = request.with_payload as WithPayload; // defaults to false for query
  const withVector = request.with_vector as WithVector;

  if (request.query == null) {
    // No query: the filtered points in id order, like a scroll.
    const points = pointsInIdOrder(collection, request.filter).slice(offset, offset + limit);
    return ok({ points: points.map((point) => toScoredPoint(point, 0, withPayload, withVector)) });
  }
  const using = request.using ?? '';
  const { vector, excludeId } = queryVector(collection, request.query, using);
  const filter = request.filter;
  const scoreThreshold = request.score_threshold;
  const points = nearest(collection, { vector, using, filter, limit, offset, scoreThreshold, withPayload, withVector, excludeId });
  return ok({ points });
}

/**
 * The dense vector a QueryInterface asks for: a vector, `{nearest}`, or the id of a stored point (which is
 * then left out of the results).
 */
function queryVector(collection: CollectionState, query: unknown, using: string): { vector: number[]; excludeId?: PointId } {
  const input = isRecord(query) && 'nearest' in query ? query.nearest : query;
  if (isRecord(query) && !('nearest' in query)) throw notImplemented(`query ${Object.keys(query).join(', ')}`);
  if (isRecord(query) && query.mmr != null) throw notImplemented('mmr');
  if (typeof input === 'number' || typeof input === 'string') {
    const point = collection.points.get(pointKey(input));
    if (!point) throw notFound(`No point with id ${String(input)} found`);
    const vector = point.vectors[using];
    if (!vector) throw badInput(`Not existing vector name error: ${using}`);
    return { vector, excludeId: point.id };
  }
  if (!Array.isArray(input)) throw notImplemented('sparse, multi-vector or inference queries');
  return { vector: input as number[] };
}

function searchPoints(ctx: HandlerContext): Reply {
  const collection = collectionOf(ctx);
  const request = ctx.body as Omit<Schemas['SearchRequest'], 'filter'> & { filter?: Filter | null };
  // NamedVectorStruct: a bare vector, or {name, vector}.
  const named = isRecord(request.vector) ? (request.vector as { name: string; vector: unknown }) : undefined;
  if (named && !Array.isArray(named.vector)) throw notImplemented('sparse search');
  const points = nearest(collection, {
    vector: (named ? named.vector : request.vector) as number[],
    using: named?.name ?? '',
    filter: request.filter,
    limit: request.limit,
    offset: request.offset ?? 0,
    scoreThreshold: request.score_threshold,
    withPayload: request.with_payload as WithPayload,
    withVector: request.with_vector as WithVector,
  });
  return ok(points); // the legacy endpoint answers a bare ScoredPoint[]
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T, key: string) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value, key)]));
}

function withoutNulls(record: object | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record ?? {}).filter(([, value]) => value != null));
}
