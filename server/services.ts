import { AccessTokenService } from './auth/accessTokens.ts';
import type { Db } from './db/open.ts';
import type { Logger } from './logger.ts';
import type { MemoryDeps } from './memory/memory.service.ts';
import { SettingsStore } from './settings/settings.ts';

/** Everything a request may need, built once per process and shared by every request. */
export interface Services {
  db: Db;
  logger: Logger;
  settings: SettingsStore;
  tokens: AccessTokenService;
  memory: MemoryDeps;
}

export function createServices(opts: { db: Db; logger: Logger; adminToken?: string | null }): Services {
  const settings = new SettingsStore(opts.db, (name, reason) =>
    opts.logger.warn({ setting: name, reason }, 'stored setting is invalid; using the default'),
  );
  return {
    db: opts.db,
    logger: opts.logger,
    settings,
    tokens: new AccessTokenService(opts.db, opts.adminToken ?? null),
    memory: { db: opts.db, settings, logger: opts.logger },
  };
}
