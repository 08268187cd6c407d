import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { badInput } from '../errors.ts';
import { ConfigVersion } from '../settings/configVersion.ts';
import { readSettingRows, writeSettings } from '../settings/settings.repository.ts';
import { parseInput } from '../validation.ts';

export type QdrantQuantization = 'none' | 'int8' | 'binary';

/** What the API shows: never the key itself, only whether one is set and where each value comes from. */
export interface QdrantSettingsView {
  url: string | null;
  collection: string;
  hasApiKey: boolean;
  quantization: QdrantQuantization;
  timeoutMs: number;
  /** Settings fixed by MNEMO_QDRANT_* variables, which the API cannot change. */
  fromEnvironment: string[];
}

export interface QdrantConnection {
  url: string;
  collection: string;
  apiKey: string | null;
  quantization: QdrantQuantization;
  timeoutMs: number;
}

const stored = z.object({
  url: z.string().nullable().default(null),
  collection: z.string().default('mnemo_memory'),
  apiKey: z.string().nullable().default(null),
  quantization: z.enum(['none', 'int8', 'binary']).default('none'),
  timeoutMs: z.number().int().default(5000),
});
type Stored = z.output<typeof stored>;

const patchSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL such as http://localhost:6333' }).nullish(),
    host: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^[\w.-]+$/, 'host must be a host name or address')
      .nullish(),
    port: z.number().int().min(1, 'port must be 1 to 65535').max(65535, 'port must be 1 to 65535').nullish(),
    https: z.boolean().nullish(),
    collection: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,255}$/, 'collection must be letters, digits, "-" or "_"')
      .nullish(),
    /** Write-only: undefined keeps the stored key, '' removes it. */
    apiKey: z.string().max(4096).nullish(),
    quantization: z.enum(['none', 'int8', 'binary']).nullish(),
    timeoutMs: z.number().int().min(100, 'timeoutMs must be at least 100').max(120_000, 'timeoutMs must be at most 120000').nullish(),
  })
  .refine((p) => !(p.url && (p.host || p.port)), 'give either url or host and port, not both');
export type QdrantSettingsPatch = z.input<typeof patchSchema>;

const PREFIX = 'qdrant.';

/**
 * Where Qdrant is and how to use it: stored in the settings table (keys prefixed "qdrant."), overridden by
 * MNEMO_QDRANT_URL / _API_KEY / _COLLECTION / _TIMEOUT_MS. The API key is write-only.
 */
export class QdrantSettingsStore {
  private cached: { stored: Stored; version: number } | null = null;
  private version = 0;

  private readonly db: Db;
  private readonly now: () => number;
  private readonly configVersion: ConfigVersion;

  constructor(
    deps: { db: Db; now: () => number; configVersion?: ConfigVersion },
    private readonly env: NodeJS.ProcessEnv = {},
  ) {
    this.db = deps.db;
    this.now = deps.now;
    this.configVersion = deps.configVersion ?? new ConfigVersion(deps);
  }

  revision(): number {
    return this.version;
  }

  async view(): Promise<QdrantSettingsView> {
    const s = await this.effective();
    return {
      url: s.url,
      collection: s.collection,
      hasApiKey: s.apiKey !== null,
      quantization: s.quantization,
      timeoutMs: s.timeoutMs,
      fromEnvironment: this.fromEnvironment(),
    };
  }

  /** The key in use (from MNEMO_QDRANT_API_KEY or the settings), for comparing states; never shown. */
  async apiKey(): Promise<string | null> {
    return (await this.effective()).apiKey;
  }

  /** The connection to use, or null when no URL is configured. */
  async connection(): Promise<QdrantConnection | null> {
    const s = await this.effective();
    return s.url ? { url: s.url, collection: s.collection, apiKey: s.apiKey, quantization: s.quantization, timeoutMs: s.timeoutMs } : null;
  }

  /** Saves a patch; with `requireUrl`, one that would leave no URL is refused and nothing is saved. */
  async update(patch: QdrantSettingsPatch, opts: { requireUrl?: boolean } = {}): Promise<QdrantSettingsView> {
    const p = parseInput(patchSchema, patch);
    const changes: Partial<Stored> = {};
    if (p.url !== undefined) changes.url = p.url;
    if (p.host) changes.url = `${p.https ? 'https' : 'http'}://${p.host}:${p.port ?? 6333}`;
    if (p.collection) changes.collection = p.collection;
    if (p.apiKey !== undefined && p.apiKey !== null) changes.apiKey = p.apiKey.trim() === '' ? null : p.apiKey.trim();
    if (p.quantization) changes.quantization = p.quantization;
    if (p.timeoutMs) changes.timeoutMs = p.timeoutMs;
    const url = this.env.MNEMO_QDRANT_URL || ('url' in changes ? changes.url : (await this.stored()).url);
    if (opts.requireUrl && !url) throw badInput('set a Qdrant url (or host and port) before enabling it');
    await writeSettings(this.db, Object.fromEntries(Object.entries(changes).map(([name, value]) => [PREFIX + name, value])), this.now());
    this.configVersion.expire();
    this.version++;
    return this.view();
  }

  private async effective(): Promise<Stored> {
    const stored = await this.stored();
    const e = this.env;
    return {
      url: e.MNEMO_QDRANT_URL || stored.url,
      collection: e.MNEMO_QDRANT_COLLECTION || stored.collection,
      apiKey: e.MNEMO_QDRANT_API_KEY || stored.apiKey,
      quantization: stored.quantization,
      timeoutMs: Number(e.MNEMO_QDRANT_TIMEOUT_MS) || stored.timeoutMs,
    };
  }

  /** The stored settings, read again once the configuration's version changed (here or in another process). */
  private async stored(): Promise<Stored> {
    const version = await this.configVersion.current();
    if (this.cached?.version !== version) this.cached = { stored: await this.load(), version };
    return this.cached.stored;
  }

  private fromEnvironment(): string[] {
    const names: [string, string][] = [
      ['MNEMO_QDRANT_URL', 'url'],
      ['MNEMO_QDRANT_COLLECTION', 'collection'],
      ['MNEMO_QDRANT_API_KEY', 'apiKey'],
      ['MNEMO_QDRANT_TIMEOUT_MS', 'timeoutMs'],
    ];
    return names.filter(([env]) => this.env[env]).map(([, field]) => field);
  }

  private async load(): Promise<Stored> {
    const rows = await readSettingRows(this.db, PREFIX);
    const raw = Object.fromEntries(rows.map((r) => [r.name.slice(PREFIX.length), JSON.parse(r.value) as unknown]));
    const parsed = stored.safeParse(raw);
    return parsed.success ? parsed.data : stored.parse({});
  }
}
