import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from './validation.ts';

const configSchema = z.object({
  dataDir: z.string().min(1).default('./data'),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number().int().min(0, 'port must be 0 to 65535').max(65535, 'port must be 0 to 65535').default(4000),
  adminToken: z
    .string()
    .min(16, 'MNEMO_ADMIN_TOKEN must be at least 16 characters')
    .nullish()
    .transform((v) => v ?? null),
});

export type Config = z.output<typeof configSchema> & { databaseFile: string };

export class ConfigError extends Error {}

/** Flags win over the environment, the environment over defaults. Parsed and validated once, at start. */
export function loadConfig(flags: { dataDir?: string; host?: string; port?: string }, env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse({
    dataDir: flags.dataDir ?? env.MNEMO_DATA_DIR,
    host: flags.host ?? env.MNEMO_HOST,
    port: flags.port ?? env.MNEMO_PORT,
    adminToken: env.MNEMO_ADMIN_TOKEN || undefined,
  });
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
  const dataDir = path.resolve(parsed.data.dataDir);
  return { ...parsed.data, dataDir, databaseFile: path.join(dataDir, 'mnemo.db') };
}
