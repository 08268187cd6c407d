/** Loading state and file checks shared by the local-model embedders (static and transformers). */
import { statSync } from 'node:fs';
import path from 'node:path';
import { type EmbedderState, EmbeddingError, type EmbeddingErrorKind } from './embedder.ts';

export interface ModelLoaderOptions {
  /** A failed load may be retried after this long. */
  retryAfterMs: number;
  /** Changes when the model's files on disk change; a failed load is retried at once when it does. */
  fingerprint: () => string;
  /** Turns whatever a load attempt throws into the error callers see. */
  toError: (err: unknown) => EmbeddingError;
  /** The clock retryAfterMs is measured with (the services' clock). */
  now: () => number;
}

/**
 * Single-flight, non-sticky loading: concurrent load() calls share one attempt; after a failure, load() answers
 * with the same error (without trying) until retryAfterMs has passed or the files on disk changed.
 */
export class ModelLoader<T> {
  #state: EmbedderState = 'idle';
  #value: T | null = null;
  #error: EmbeddingError | null = null;
  #inflight: Promise<T> | null = null;
  #failedAt = 0;
  #failedFingerprint = '';

  constructor(
    private readonly attempt: () => Promise<T>,
    private readonly options: ModelLoaderOptions,
  ) {}

  state(): EmbedderState {
    return this.#state;
  }

  value(): T | null {
    return this.#value;
  }

  lastError(): EmbeddingError | null {
    return this.#error;
  }

  /** Records a failure that happened while using the loaded model (it stays loaded). */
  noteError(error: EmbeddingError): void {
    this.#error = error;
  }

  load(): Promise<T> {
    if (this.#state === 'ready') return Promise.resolve(this.#value as T);
    if (this.#inflight) return this.#inflight;
    if (this.#state === 'failed' && this.#error && !this.#mayRetry()) return Promise.reject(this.#error);
    this.#state = 'loading';
    // Taken before the attempt, so files that appear while it runs still count as a change afterwards.
    const fingerprint = this.options.fingerprint();
    this.#inflight = this.attempt().then(
      (value) => {
        this.#value = value;
        this.#error = null;
        this.#state = 'ready';
        this.#inflight = null;
        return value;
      },
      (err: unknown) => {
        this.#error = this.options.toError(err);
        this.#failedAt = this.options.now();
        this.#failedFingerprint = fingerprint;
        this.#state = 'failed';
        this.#inflight = null;
        throw this.#error;
      },
    );
    return this.#inflight;
  }

  /** For the request path: the model, waiting for a load in progress, but never starting one. */
  async loaded(what: string): Promise<T> {
    if (this.#state === 'ready') return this.#value as T;
    if (this.#inflight) return this.#inflight;
    if (this.#state === 'failed' && this.#error) throw this.#error;
    throw new EmbeddingError('model_unavailable', `${what} is not loaded yet (load() has not been called)`);
  }

  #mayRetry(): boolean {
    return this.options.now() - this.#failedAt >= this.options.retryAfterMs || this.options.fingerprint() !== this.#failedFingerprint;
  }
}

/**
 * The part of Embedder that the local-model embedders (static, transformers) share: loading, its state and its
 * errors, answered by their ModelLoader. A subclass loads its model and embeds with it.
 */
export abstract class LocalModelEmbedder<T extends { dim: number }> {
  protected abstract readonly loader: ModelLoader<T>;

  dimension(): number | null {
    return this.loader.value()?.dim ?? null;
  }

  /** Loads once, shared by concurrent callers; meant to be started in the background, not on a request. */
  async load(): Promise<void> {
    await this.loader.load();
  }

  state(): EmbedderState {
    return this.loader.state();
  }

  lastError(): EmbeddingError | null {
    return this.loader.lastError();
  }

  /** A failure while embedding: kept for the engine status (the model stays loaded), then thrown. */
  protected embedFailed(err: unknown, context: string): never {
    const error = asEmbeddingError(err, 'bad_response', context);
    this.loader.noteError(error);
    throw error;
  }
}

/** What a model's code threw, as an EmbeddingError saying where: "<context>: <the error and its causes>". */
export function asEmbeddingError(err: unknown, kind: EmbeddingErrorKind, context: string): EmbeddingError {
  return err instanceof EmbeddingError ? err : new EmbeddingError(kind, `${context}: ${describeError(err)}`, { cause: err });
}

/** Size and mtime of each file (or its absence): cheap to compute, changes whenever a file is added or replaced. */
export function filesFingerprint(dir: string, files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(path.join(dir, f));
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

/**
 * A hub repo id ("org/name" or "name", letters, digits, "-", "_", "."), checked before it becomes part of a
 * folder path or URL so that "../x" cannot point the cache or the download elsewhere.
 */
export function assertRepoId(model: string): void {
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(model) || model.split('/').some((s) => s === '.' || s === '..' || s.includes('..'))) {
    throw new EmbeddingError('model_unavailable', `"${model}" is not a hub model id (expected "org/name")`);
  }
}

/** Which of `files` (paths relative to `dir`) are not regular files there. */
export function missingFiles<F extends string>(dir: string, files: readonly F[]): F[] {
  return files.filter((f) => {
    try {
      return !statSync(path.join(dir, f)).isFile();
    } catch {
      return true;
    }
  });
}

/** An error's message with its causes, e.g. "fetch failed (getaddrinfo ENOTFOUND huggingface.co)". */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    const message = e instanceof Error ? e.message : String(e);
    if (message && !parts.includes(message)) parts.push(message);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.length === 0
    ? 'unknown error'
    : parts[0] +
        parts
          .slice(1)
          .map((p) => ` (${p})`)
          .join('');
}
