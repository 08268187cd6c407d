import { ErrorNote } from '../components/ErrorNote';
import { type PurgeStatusQuery, usePurgeStatusQuery } from '../generated/graphql';
import { formatDateTime, formatNumber, plural } from '../memories/format';

/** A count the audit log recorded in a purge's target, 0 when it is not there. */
const countIn = (target: Record<string, unknown> | null, name: string) => {
  const n = target?.[name];
  return typeof n === 'number' ? n : 0;
};

/**
 * Retention as set, what it and expiry hide now (over every key), when the purge deletes the first of it, and the last
 * purge that deleted anything. Every figure is the server's: the memory stats and the audit log.
 */
export function PurgeCard() {
  const { data, error, isPending } = usePurgeStatusQuery();
  return (
    <section className="card" aria-labelledby="purge-title">
      <h2 id="purge-title">Retention and purge</h2>
      {isPending ? (
        <p className="muted">Loading…</p>
      ) : !data ? (
        <ErrorNote error={error} prefix="Purge status could not be loaded" />
      ) : (
        <PurgeFigures status={data} />
      )}
    </section>
  );
}

function PurgeFigures({ status }: { status: PurgeStatusQuery }) {
  const settings = status.memorySettings;
  const stats = status.memories.stats;
  const last = status.auditLog.items[0];
  const hidden = stats.hiddenByExpiry + stats.hiddenByRetention;
  const retrievable = `${plural(stats.totalEntries, 'memory', 'memories')} ${stats.totalEntries === 1 ? 'is' : 'are'} retrieved as usual`;
  const due = stats.nextPurgeAt !== null && new Date(stats.nextPurgeAt).getTime() <= Date.now();
  return (
    <>
      <dl className="kv purge-status">
        <dt>Retention</dt>
        <dd>
          {settings.retentionEnabled
            ? `On: a memory last written more than ${plural(settings.retentionDays, 'day')} ago is no longer retrieved.`
            : 'Off: memories are kept and retrieved however old they are (an expiry date still hides one).'}
        </dd>
        <dt>Purge grace</dt>
        <dd>
          {plural(settings.purgeGraceDays, 'day')}: the purge deletes a memory this long after it expired or left the retention window, at
          start and hourly.
        </dd>
        <dt>Hidden now</dt>
        <dd>
          {hidden === 0
            ? `Nothing: ${retrievable}.`
            : `${formatNumber(stats.hiddenByRetention)} out of retention and ${formatNumber(stats.hiddenByExpiry)} expired: kept, but never retrieved; ${retrievable}.`}{' '}
          {hidden > 0 && <a href="#/memories?all=1">Show them in Memories</a>}
        </dd>
        <dt>Next purge</dt>
        <dd>
          {stats.nextPurgeAt === null
            ? 'Nothing is waiting for the purge.'
            : due
              ? 'Due now: the next pass deletes the first of them (or run mnemo purge).'
              : `The first of them is deleted from ${formatDateTime(stats.nextPurgeAt)}.`}
        </dd>
        <dt>Last purge</dt>
        <dd>
          {last
            ? `${formatDateTime(last.at)} by ${last.actorName}: ${plural(countIn(last.target, 'expired'), 'expired memory', 'expired memories')} and ${formatNumber(countIn(last.target, 'outOfRetention'))} out of retention deleted.`
            : 'No purge has deleted anything yet, as far as the audit log goes back.'}{' '}
          {status.auditLog.totalCount > 0 && (
            <a href="#/audit?action=MEMORIES_PURGE">{plural(status.auditLog.totalCount, 'purge', 'purges')} in the audit log</a>
          )}
        </dd>
      </dl>
      <p className="muted small-note">
        The Memories tab counts what is hidden for any filter (Total entries) and lists it with Show expired and archived. Retention and the
        grace are set in <a href="#/settings">Settings</a>.
      </p>
    </>
  );
}
