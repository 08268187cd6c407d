/** Plain-text tables for stdout: a title, a header row, right-aligned figures. */

export interface Table {
  title: string;
  columns: { header: string; align?: 'left' | 'right' }[];
  rows: string[][];
  notes?: string[];
}

export function renderTable(t: Table): string {
  const widths = t.columns.map((c, i) => Math.max(c.header.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number) => {
    const align = t.columns[i]!.align ?? (i === 0 ? 'left' : 'right');
    return align === 'left' ? text.padEnd(widths[i]!) : text.padStart(widths[i]!);
  };
  const line = (cells: string[]) => `  ${cells.map(cell).join('  ')}`.trimEnd();
  const out = [t.title, line(t.columns.map((c) => c.header)), `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`];
  for (const row of t.rows) out.push(line(row));
  for (const note of t.notes ?? []) out.push(`  ${note}`);
  return `${out.join('\n')}\n`;
}

export function printTable(t: Table): void {
  process.stdout.write(`\n${renderTable(t)}`);
}

/** 12,345 */
export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Figures with about three significant digits: 0.123, 1.23, 12.3, 123. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms < 1) return ms.toFixed(3);
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return ms.toFixed(0);
}

/** Rate per second from a count and elapsed milliseconds. */
export const perSecond = (count: number, ms: number) => (count * 1000) / ms;
