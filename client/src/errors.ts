/**
 * Every way a call to mnemo can fail, as a code: mnemo's own GraphQL error codes (what the server said), and
 * the client's (what happened on the way). Never a string to parse.
 */
export type MnemoServerErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR'
  | 'BAD_REQUEST'
  | 'REQUEST_ENTITY_TOO_LARGE'
  | 'PERSISTED_QUERY_ONLY'
  | 'PERSISTED_QUERY_ID_REQUIRED'
  | 'PERSISTED_QUERY_NOT_IN_LIST';

export type MnemoClientErrorCode =
  /** No answer within the deadline. */
  | 'TIMEOUT'
  /** The connection failed (refused, reset, DNS). */
  | 'UNREACHABLE'
  /** Recent calls failed; this one was not sent (see CircuitBreakerOptions). */
  | 'CIRCUIT_OPEN'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** An answer that is not a GraphQL response (a proxy's error page, a 5xx without a body). */
  | 'BAD_RESPONSE';

export type MnemoErrorCode = MnemoServerErrorCode | MnemoClientErrorCode;

const SERVER_CODES: ReadonlySet<string> = new Set<MnemoServerErrorCode>([
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'FORBIDDEN',
  'UNAUTHENTICATED',
  'UNAVAILABLE',
  'INTERNAL_SERVER_ERROR',
  'BAD_REQUEST',
  'REQUEST_ENTITY_TOO_LARGE',
  'PERSISTED_QUERY_ONLY',
  'PERSISTED_QUERY_ID_REQUIRED',
  'PERSISTED_QUERY_NOT_IN_LIST',
]);

/** One GraphQL error as the server sent it. */
export interface GraphQLErrorItem {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export class MnemoError extends Error {
  override readonly name = 'MnemoError';

  constructor(
    readonly code: MnemoErrorCode,
    message: string,
    /** The server's errors, when it answered with some. */
    readonly errors: readonly GraphQLErrorItem[] = [],
    /** The HTTP status, when there was an answer. */
    readonly status: number | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** A failure of the way to mnemo rather than an answer from it: these open the circuit breaker. */
  get transient(): boolean {
    return this.code === 'TIMEOUT' || this.code === 'UNREACHABLE' || this.code === 'BAD_RESPONSE';
  }

  /** From a GraphQL response's errors; an unknown code is reported as INTERNAL_SERVER_ERROR. */
  static fromGraphQL(errors: readonly GraphQLErrorItem[], status: number | null): MnemoError {
    const code = errors.find((e) => typeof e.extensions?.code === 'string')?.extensions?.code;
    const known = code !== undefined && SERVER_CODES.has(code) ? (code as MnemoServerErrorCode) : 'INTERNAL_SERVER_ERROR';
    return new MnemoError(known, errors.map((e) => e.message).join('; '), errors, status);
  }
}

export function isMnemoError(error: unknown, code?: MnemoErrorCode): error is MnemoError {
  return error instanceof MnemoError && (code === undefined || error.code === code);
}
