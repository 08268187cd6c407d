import type { Plugin } from 'graphql-yoga';

/**
 * Ends every subscription when `signal` aborts (the server is shutting down): the stream finishes as if its
 * source had, so the client gets a proper `complete` event instead of a cut connection, and the source's
 * own clean-up (return()) runs.
 */
export function useEndStreamsOn(signal: AbortSignal): Plugin {
  return {
    onSubscribe: () => ({
      onSubscribeResult: ({ result, setResult }) => {
        if (isAsyncIterable(result)) setResult(endingOn(result, signal));
      },
    }),
  };
}

function isAsyncIterable<T>(value: unknown): value is AsyncIterable<T> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function endingOn<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const aborted = new Promise<IteratorReturnResult<undefined>>((resolve) => {
    const end = () => resolve({ done: true, value: undefined });
    if (signal.aborted) end();
    else signal.addEventListener('abort', end, { once: true });
  });
  // Not awaited: a generator still waiting for its next value runs its return() only once that value comes,
  // which for an idle source may be never; the stream ends now either way.
  const finish = async (): Promise<IteratorReturnResult<undefined>> => {
    iterator.return?.().catch(() => {});
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      const step = await Promise.race([iterator.next(), aborted]);
      return step.done && signal.aborted ? finish() : step;
    },
    return: finish,
    throw: async (error) => {
      iterator.return?.().catch(() => {});
      throw error;
    },
  };
}
