import path from 'node:path';
import { z } from 'zod';
import { LEASE_MS } from './jobs/lease.ts';
import { checkInput } from './validation.ts';

const portSchema = (name: string) => z.coerce.number().int().min(0, `${name} must be 0 to 65535`).max(65535, `${name} must be 0 to 65535`);
const secretSchema = (name: string) =>
  z
    .string()
    .min(16, `${name} must be at least 16 characters`)
    .nullish()
    .transform((v) => v ?? null);

const WORKERS_RANGE = 'MNEMO_WORKERS must be a whole number of processes, 1 to 64';

const configSchema = z.object({
  dataDir: z.string().min(1).default('./data'),
  host: z.string().min(1).default('127.0.0.1'),
  port: portSchema('port').default(4000),
  adminToken: secretSchema('MNEMO_ADMIN_TOKEN'),
  /** A second listener, on the same host, that serves only /metrics. */
  metricsPort: portSchema('MNEMO_METRICS_PORT')
    .nullish()
    .transform((v) => v ?? null),
  /** /metrics on the main port for requests that send this as their bearer token. */
  metricsToken: secretSchema('MNEMO_METRICS_TOKEN'),
  /** Where backupDatabase writes (default: backups/ in the data folder). */
  backupDir: z.string().min(1).nullish(),
  /** How long a shutdown waits for requests in flight before it cuts them. */
  shutdownTimeoutMs: z.coerce
    .number()
    .int()
    .min(0, 'MNEMO_SHUTDOWN_TIMEOUT_MS must be 0 to 600000')
    .max(600_000, 'MNEMO_SHUTDOWN_TIMEOUT_MS must be 0 to 600000')
    .default(10_000),
  /** postgres://… : keep the data in PostgreSQL (shared by replicas) instead of the data folder's SQLite file. */
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'MNEMO_DATABASE_URL must start with postgres:// or postgresql://')
    .nullish()
    .transform((v) => v ?? null),
  /** Connections to PostgreSQL this process keeps open at most. */
  databasePoolSize: z.coerce
    .number()
    .int()
    .min(1, 'MNEMO_DATABASE_POOL_SIZE must be 1 to 1000')
    .max(1000, 'MNEMO_DATABASE_POOL_SIZE must be 1 to 1000')
    .default(10),
  /**
   * How long a background duty's lease (purge, auto-summarize, audit retention, the embedding worker) outlives its
   * holder's last renewal: how soon another replica takes a duty over when the process running it dies.
   */
  leaseSeconds: z.coerce
    .number()
    .int()
    .min(3, 'MNEMO_LEASE_SECONDS must be 3 to 3600')
    .max(3600, 'MNEMO_LEASE_SECONDS must be 3 to 3600')
    .default(LEASE_MS / 1000),
  /**
   * Processes that serve requests, over the same database: 1 is a single process; more are workers that share the port
   * (the primary holds the data folder and restarts a worker that crashes). By default 1: on the 2-core machine it
   * was measured on, two workers served 1.18 times what one did, with 2.5 times its memory (docs/scaling.md).
   */
  workers: z.coerce.number({ error: WORKERS_RANGE }).int(WORKERS_RANGE).min(1, WORKERS_RANGE).max(64, WORKERS_RANGE).default(1),
  /** A trusted-documents manifest (or a folder of them): only those operations run. */
  trustedDocuments: z.string().min(1).nullish(),
  /** With trusted documents on, admin tokens may still send any document. */
  trustedDocumentsAllowAdmin: z.stringbool().default(false),
});

export type Config = Omit<z.output<typeof configSchema>, 'backupDir'> & { databaseFile: string; backupDir: string };

export class ConfigError extends Error {}

/** Flags win over the environment, the environment over defaults. Parsed and validated once, at start. */
export function loadConfig(
  flags: { dataDir?: string; host?: string; port?: string; databaseUrl?: string },
  env: NodeJS.ProcessEnv = process.env,
): Config {
  const checked = checkInput(configSchema, {
    dataDir: flags.dataDir ?? env.MNEMO_DATA_DIR,
    host: flags.host ?? env.MNEMO_HOST,
    port: flags.port ?? env.MNEMO_PORT,
    adminToken: env.MNEMO_ADMIN_TOKEN || undefined,
    metricsPort: env.MNEMO_METRICS_PORT || undefined,
    metricsToken: env.MNEMO_METRICS_TOKEN || undefined,
    shutdownTimeoutMs: env.MNEMO_SHUTDOWN_TIMEOUT_MS || undefined,
    backupDir: env.MNEMO_BACKUP_DIR || undefined,
    databaseUrl: flags.databaseUrl ?? (env.MNEMO_DATABASE_URL || undefined),
    databasePoolSize: env.MNEMO_DATABASE_POOL_SIZE || undefined,
    leaseSeconds: env.MNEMO_LEASE_SECONDS || undefined,
    workers: env.MNEMO_WORKERS || undefined,
    trustedDocuments: env.MNEMO_TRUSTED_DOCUMENTS || undefined,
    trustedDocumentsAllowAdmin: env.MNEMO_TRUSTED_DOCUMENTS_ALLOW_ADMIN || undefined,
  });
  if (!checked.ok) throw new ConfigError(checked.problems);
  const dataDir = path.resolve(checked.value.dataDir);
  const backupDir = path.resolve(checked.value.backupDir ?? path.join(dataDir, 'backups'));
  return { ...checked.value, dataDir, backupDir, databaseFile: path.join(dataDir, 'mnemo.db') };
}
