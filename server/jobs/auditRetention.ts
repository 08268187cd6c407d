import { type AuditDeps, purgeAudit } from '../audit/audit.service.ts';
import type { Logger } from '../logger.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { Leases } from './lease.ts';

const HOUR_MS = 3_600_000;

/**
 * Deletes audit entries older than the auditRetentionDays setting now and every hour after, until stopped, where the
 * audit-retention lease is held (one process among those sharing the database); never keeps the process alive.
 */
export function startAuditRetention(
  deps: AuditDeps & { settings: SettingsService; logger: Logger; leases: Leases },
  intervalMs = HOUR_MS,
): () => void {
  const run = () =>
    deps.leases
      .whenHeld('audit-retention', () => purgeAudit(deps))
      .then(
        (deleted) => deleted !== null && deleted > 0 && deps.logger.info({ deleted }, 'audit entries past their retention deleted'),
        (err: unknown) => deps.logger.error({ err }, 'deleting old audit entries failed'),
      );
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
