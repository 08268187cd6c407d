/**
 * Expected failures of the domain. The GraphQL layer turns them into errors with `extensions.code`;
 * anything else is treated as a bug and masked.
 */
/**
 * UNAVAILABLE: a store or service mnemo depends on (Qdrant, a model provider) could not be reached; retrying later may work.
 * STORAGE_FULL: the database's disk is full, so nothing can be written until space is freed. STORAGE_ERROR: the database
 * file could not be read or written (an I/O error, corruption, read-only); an operator must look.
 */
export type DomainErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'UNAVAILABLE'
  | 'STORAGE_FULL'
  | 'STORAGE_ERROR';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'DomainError';
  }
}

export const badInput = (message: string) => new DomainError('BAD_USER_INPUT', message);
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const unavailable = (message: string) => new DomainError('UNAVAILABLE', message);
