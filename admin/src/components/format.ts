/** Number and time formatting shared by the panels; all in the browser's locale. */

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatInt(n: number): string {
  return integer.format(n);
}

/**
 * Scores live on different scales (BM25 ≈ 5, cosine 0–1, the fused score 0–1 and near 0 for a hit one tier barely
 * ranks): keep 3 significant digits.
 */
export function formatScore(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 1) return n.toFixed(2);
  return n.toFixed(Math.min(6, 2 - Math.floor(Math.log10(abs))));
}

/** 4 s, 2 min 5 s, 1 h 3 min. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 100) return `${formatInt(perSecond)}/s`;
  if (perSecond >= 10) return `${perSecond.toFixed(1)}/s`;
  return `${perSecond.toFixed(2)}/s`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  return `${Math.round((part / whole) * 100)}%`;
}

/** Nov 30, 07:11 — for tight spaces. */
export function formatShortTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
