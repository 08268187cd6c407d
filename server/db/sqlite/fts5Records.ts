/**
 * FTS5's own records, read where they are cheaper than asking FTS5: the averages record (rowid 1 of memories_fts_data:
 * the row count, then each column's token count over all rows), which FTS5 keeps current, and a row's sizes
 * (memories_fts_docsize.sz: each column's token count). Both are SQLite varints: big-endian groups of 7 bits, the high
 * bit set on all but the last; a ninth byte carries 8 bits.
 */
export function varints(bytes: Uint8Array): number[] {
  const values: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    let value = 0;
    for (let i = 0; ; i++) {
      const byte = bytes[at++] ?? 0;
      if (i === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0 || at >= bytes.length) break;
    }
    values.push(value);
  }
  return values;
}

/** The index's rows, and their average length in tokens over every column: the N and avgdl of FTS5's bm25(). */
export function indexAverages(block: Uint8Array | null): { rows: number; averageLength: number } {
  if (block === null) return { rows: 0, averageLength: 0 };
  const [rows = 0, ...columns] = varints(block);
  const tokens = columns.reduce((sum, n) => sum + n, 0);
  return { rows, averageLength: rows === 0 ? 0 : tokens / rows };
}

/** A row's length in tokens over every column: the D of bm25(). */
export function rowLength(sizes: Uint8Array): number {
  return varints(sizes).reduce((sum, n) => sum + n, 0);
}
