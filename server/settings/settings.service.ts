import { z } from 'zod';
import type { Db } from '../db/open.ts';
import {
  auditRetentionDaysSchema,
  checkInput,
  extractionModelDailyTokensSchema,
  historyVersionsKeptSchema,
  injectionLogDaysSchema,
  LIMITS,
  maxTokensSchema,
  parseInput,
  purgeGraceDaysSchema,
  retentionDaysSchema,
} from '../validation.ts';
import { ConfigVersion } from './configVersion.ts';
import * as repo from './settings.repository.ts';

export const STRATEGIES = ['EXACT', 'SEMANTIC', 'HYBRID'] as const;
export const EMBEDDING_SOURCES = ['AUTO', 'REMOTE', 'STATIC', 'TRANSFORMERS'] as const;
export const VECTOR_STORES = ['AUTO', 'SQLITE_VEC', 'QDRANT'] as const;
/** Whose chat messages are kept as episodic memories of their session: nobody's, the user's, or the user's and the assistant's. */
export const CAPTURE_TURNS = ['OFF', 'USER', 'ALL'] as const;

/** Providers and models that reject or mishandle the system role, by provider id or model id. */
export const DEFAULT_USER_ROLE_PROVIDERS: readonly string[] = ['o1', 'o1-mini', 'o1-preview', 'glm', 'glmt', 'glm-cn', 'zai', 'qianfan'];

const optionalName = z.string().trim().max(LIMITS.modelNameChars, `is longer than ${LIMITS.modelNameChars} characters`).nullable();

/** Every setting with its range and default. Out-of-range values are rejected, never clamped. */
export const settingsSchema = z.object({
  enabled: z.boolean().default(false),
  maxTokens: maxTokensSchema.default(2000),
  retentionDays: retentionDaysSchema.default(30),
  /**
   * Off keeps every memory, whatever its age (retentionDays is kept for when it is turned back on). A separate switch
   * rather than a null retentionDays: null already means "leave as is" for the settings that cannot be null.
   */
  retentionEnabled: z.boolean().default(true),
  /** Days a memory stays in the database after it expired or left the retention window, before the purge deletes it. */
  purgeGraceDays: purgeGraceDaysSchema.default(7),
  strategy: z.enum(STRATEGIES).default('HYBRID'),
  embeddingSource: z.enum(EMBEDDING_SOURCES).default('AUTO'),
  embeddingProviderModel: optionalName.default(null),
  transformersEnabled: z.boolean().default(false),
  staticEnabled: z.boolean().default(true),
  rerankEnabled: z.boolean().default(false),
  rerankProviderModel: optionalName.default(null),
  vectorStore: z.enum(VECTOR_STORES).default('AUTO'),
  autoSummarize: z.boolean().default(false),
  /**
   * HYBRID's vector-tier share in the fusion, 0 to 1 (keyword's is the rest); null: chosen per query by the
   * calibrated guard (retrieval/fusion.ts).
   */
  fusionVectorShare: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').nullable().default(null),
  /** Share of maxTokens that the key's standing facts (preferences, habits) may fill after the relevant hits. */
  profileBudgetPercent: z.number().int('must be a whole number').min(0, 'must be at least 0').max(100, 'must be at most 100').default(25),
  /** Providers or models that reject the system role: memories reach them as a user message. */
  userRoleProviders: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(LIMITS.userRoleProviderChars, `is longer than ${LIMITS.userRoleProviderChars} characters`),
    )
    .max(LIMITS.userRoleProviders, `lists at most ${LIMITS.userRoleProviders} providers`)
    .default([...DEFAULT_USER_ROLE_PROVIDERS]),
  /** Audit entries older than this are deleted (server/audit); its own setting, apart from the memories' retentionDays. */
  auditRetentionDays: auditRetentionDaysSchema.default(365),
  /**
   * Which messages extractFacts and injectMemory keep verbatim (secrets redacted) as episodic memories of their session,
   * besides the facts the rules find: what the rules miss ("my sneakers are in the garage closet") is still recalled.
   */
  captureTurns: z.enum(CAPTURE_TURNS).default('USER'),
  /**
   * A provider's chat model ("provider/model") that extraction also asks for the durable facts of a message, in the
   * background after the rules; null: the rules alone.
   */
  extractionModel: optionalName.default(null),
  /** Tokens (prompt and answer) the extraction model may use per API key per UTC day; 0 stops its calls. */
  extractionModelDailyTokens: extractionModelDailyTokensSchema.default(20_000),
  /**
   * Previous versions each memory keeps (memory/history.service.ts); 0 keeps none. The history trigger reads the stored
   * row itself, with this default (migrations 020 and 008): changing one means changing both.
   */
  historyVersionsKept: historyVersionsKeptSchema.default(20),
  /**
   * One memory per fact: a new memory that restates one of the same key, session and type in other words is merged
   * into it (memory/merge.ts) instead of stored beside it.
   */
  mergeParaphrases: z.boolean().default(true),
  /**
   * Days each injectMemory's receipt is kept in the injection log, newest LIMITS.injectionLogRows per key; 0 (the
   * default) keeps none: the log is off, and turning it off empties it at the next purge pass.
   */
  injectionLogDays: injectionLogDaysSchema.default(0),
});

export type Settings = z.output<typeof settingsSchema>;

export const DAY_MS = 86_400_000;

export type RetentionSettings = Pick<Settings, 'retentionDays' | 'retentionEnabled'>;

/**
 * Memories last written before this instant are out of retention. Retention counts from a memory's last write, so a
 * fact restated today is fresh again; with retention off, no instant is early enough.
 */
export function retentionCutoff(now: number, settings: RetentionSettings): number {
  return settings.retentionEnabled ? now - settings.retentionDays * DAY_MS : Number.MIN_SAFE_INTEGER;
}
/**
 * A change of some settings. null leaves a setting that cannot be null as it is (GraphQL's way of not naming it) and
 * clears one whose schema takes null (a model name, fusionVectorShare).
 */
export type SettingsPatch = { [K in keyof Settings]?: Settings[K] | null };
export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

const patchSchema = settingsSchema.partial().strict();

/** The settings whose schema takes null: null clears them. */
const NULLABLE: ReadonlySet<string> = new Set(
  Object.entries(settingsSchema.shape)
    .filter(([, field]) => field.safeParse(null).success)
    .map(([name]) => name),
);

/**
 * The one way to read and write settings: validated on the way in, cached in process and read again once the stored
 * configuration's version changed (a write here, or in another process on the same database), so hot paths read them
 * for free.
 */
export class SettingsService {
  private cached: { settings: Settings; version: number } | null = null;

  private readonly db: Db;
  private readonly now: () => number;
  private readonly configVersion: ConfigVersion;

  constructor(
    deps: { db: Db; now: () => number; configVersion?: ConfigVersion },
    private readonly onInvalidRow: (name: string, reason: string) => void = () => {},
  ) {
    this.db = deps.db;
    this.now = deps.now;
    this.configVersion = deps.configVersion ?? new ConfigVersion(deps);
  }

  async get(): Promise<Settings> {
    const version = await this.configVersion.current();
    if (this.cached?.version !== version) this.cached = { settings: await this.load(), version };
    return this.cached.settings;
  }

  async update(patch: SettingsPatch): Promise<Settings> {
    const given = named(patch);
    const parsed = parseInput(patchSchema, given);
    const now = this.now();
    // Zod 4 fills in defaults even under .partial(): writing all of the parsed patch would reset every
    // setting the patch did not name.
    await repo.writeSettings(this.db, Object.fromEntries(Object.entries(parsed).filter(([name]) => name in given)), now);
    this.configVersion.expire();
    return this.get();
  }

  /** Stored rows that no longer validate (edited by hand, or from an older range) fall back to the default. */
  private async load(): Promise<Settings> {
    const rows = await repo.readSettingRows(this.db);
    const result: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    const shape = settingsSchema.shape as Record<string, z.ZodType>;
    for (const row of rows) {
      const field = shape[row.name];
      if (!field) continue;
      let value: unknown;
      try {
        value = JSON.parse(row.value);
      } catch {
        // Not JSON at all (written with checks off): fall back like any invalid row, not fail every read.
        this.onInvalidRow(row.name, 'is not valid JSON');
        continue;
      }
      const checked = checkInput(field, value);
      if (checked.ok) result[row.name] = checked.value;
      else this.onInvalidRow(row.name, checked.problems);
    }
    return result as Settings;
  }
}

/** The settings a patch changes: those it names, less the nulls of settings that cannot be null. */
function named(patch: SettingsPatch): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).filter(([name, v]) => v !== undefined && (v !== null || NULLABLE.has(name))));
}

/** What reads the settings: the service, or a draft over it. */
export type SettingsReader = Pick<SettingsService, 'get'>;

/** The settings of retrieval that a draft may change for one evaluation run. */
const draftSchema = settingsSchema
  .pick({
    strategy: true,
    maxTokens: true,
    fusionVectorShare: true,
    profileBudgetPercent: true,
    rerankEnabled: true,
    rerankProviderModel: true,
  })
  .partial()
  .strict();
export type SettingsDraft = { [K in keyof z.output<typeof draftSchema>]?: Settings[K] | null };
/** The names a draft may change, in the schema's order. */
export const DRAFT_SETTING_NAMES = Object.keys(draftSchema.shape) as (keyof SettingsDraft)[];

/**
 * The settings as they are with a draft's changes over them, read by whoever is handed this reader and nobody else:
 * nothing is written, so every other request keeps reading the saved settings. Validated like a save; `changes` are
 * the settings it changes (a null for a setting that cannot be null changes nothing, as in a save).
 */
export function draftOver(base: SettingsReader, draft: SettingsDraft): SettingsReader & { changes: Partial<Settings> } {
  const given = named(draft);
  const parsed = parseInput(draftSchema, given);
  const changes: Partial<Settings> = Object.fromEntries(Object.entries(parsed).filter(([name]) => name in given));
  return { changes, get: async () => ({ ...(await base.get()), ...changes }) };
}

/* The settings operations that resolvers and tools call; the class above is the cache they go through. */

export function memorySettings(deps: { settings: SettingsService }): Promise<Settings> {
  return deps.settings.get();
}

export function updateMemorySettings(deps: { settings: SettingsService }, patch: SettingsPatch): Promise<Settings> {
  return deps.settings.update(patch);
}
