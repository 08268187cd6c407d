import { keepPreviousData } from '@tanstack/react-query';
import { ErrorNote } from '../components/ErrorNote';
import { useMemoryOverviewQuery } from '../generated/graphql';
import { formatDate, formatNumber, formatPercent, plural } from './format';
import { StatCard } from './StatCard';
import { TypeChart } from './TypeChart';
import type { FilterVariables } from './types';
import { WeekChart } from './WeekChart';

/** Totals over every memory matching the filters (not just the page), with the type and week charts. */
export function StatCards({ filters }: { filters: FilterVariables }) {
  const { data, error, isPending } = useMemoryOverviewQuery(filters, { placeholderData: keepPreviousData });
  const stats = data?.memories.stats;
  if (error && !stats) return <ErrorNote error={error} prefix="Statistics could not be loaded" />;
  const pending = '…';
  return (
    <div className="mem-stats" aria-busy={isPending || undefined}>
      <StatCard
        label="Total entries"
        value={stats ? formatNumber(stats.totalEntries) : pending}
        detail={stats ? hiddenNote(stats) : 'matching the filters'}
        busy={isPending}
      />
      <StatCard
        label="Tokens used"
        value={stats ? formatNumber(stats.tokensUsed) : pending}
        detail={
          stats && stats.totalEntries > 0
            ? `≈ ${formatNumber(Math.round(stats.tokensUsed / stats.totalEntries))} per memory`
            : 'o200k_base tokens'
        }
        busy={isPending}
      />
      <StatCard
        label="Hit rate"
        value={stats ? (stats.hitRate === null ? '—' : formatPercent(stats.hitRate)) : pending}
        detail={stats ? (stats.retrievals === 0 ? 'no retrievals yet' : `of ${plural(stats.retrievals, 'retrieval')}`) : undefined}
        busy={isPending}
      />
      <section className="card mem-chart-card" aria-labelledby="mem-by-type">
        <div className="label" id="mem-by-type">
          By type
        </div>
        {stats ? <TypeChart byType={stats.byType} /> : <p className="muted">{pending}</p>}
      </section>
      <section className="card mem-chart-card" aria-labelledby="mem-by-week">
        <div className="label" id="mem-by-week">
          Created per week
        </div>
        {stats ? <WeekChart byWeek={stats.byWeek} /> : <p className="muted">{pending}</p>}
      </section>
      {error != null && <ErrorNote error={error} prefix="Statistics could not be refreshed" />}
    </div>
  );
}

/** What retrieval no longer sees among the memories of the filter, and when the purge deletes it. */
function hiddenNote(stats: { hiddenByExpiry: number; hiddenByRetention: number; nextPurgeAt: string | null }): string {
  const hidden = [
    stats.hiddenByRetention > 0 ? `${formatNumber(stats.hiddenByRetention)} out of retention` : null,
    stats.hiddenByExpiry > 0 ? `${formatNumber(stats.hiddenByExpiry)} expired` : null,
  ].filter((part) => part !== null);
  if (hidden.length === 0) return 'matching the filters';
  const purge = stats.nextPurgeAt ? `, purged from ${formatDate(stats.nextPurgeAt)}` : '';
  return `matching the filters; ${hidden.join(' and ')} never retrieved${purge}`;
}
