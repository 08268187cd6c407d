/**
 * The least string after every string that starts with `prefix`, in code point order (which is UTF-8's byte order,
 * as SQLite's BINARY and PostgreSQL's "C" compare): the prefix with its last code point one higher. Null when there is
 * none (an empty prefix, or one of only the highest code point): then every string from the prefix on qualifies.
 */
export function pastPrefix(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    // The next code point, stepping over the surrogates, which no string holds alone.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  return null;
}
