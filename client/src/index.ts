export type { CircuitBreakerOptions, CircuitState } from './breaker.ts';
export {
  type ExtractInput,
  type InjectOptions,
  type InjectOutcome,
  type InjectSkipReason,
  MnemoClient,
  type MnemoClientOptions,
  type MnemoClientStats,
} from './client.ts';
export {
  type GraphQLErrorItem,
  isMnemoError,
  type MnemoClientErrorCode,
  MnemoError,
  type MnemoErrorCode,
  type MnemoServerErrorCode,
} from './errors.ts';
export * from './generated/graphql.ts';
export type { ExtractQueueOptions, QueueStats } from './queue.ts';
export type { CallOptions, RetryOptions, TypedDocument } from './transport.ts';

import { MnemoClient, type MnemoClientOptions } from './client.ts';

/** A client for one mnemo server and token; share it across requests (it holds the breaker, queue and connections). */
export function createMnemoClient(options: MnemoClientOptions): MnemoClient {
  return new MnemoClient(options);
}
