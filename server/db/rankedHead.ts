/**
 * The first `limit` rows in scope of a ranking, read a head at a time: the best `head` ranked rows are checked against
 * the scope, and when it leaves out too many of them (archived, expired, another session's) a head four times as long
 * is read, until the ranking has no more rows. Both stores' keyword tiers read their ranking this way, so that an old
 * memory that matches well is found however many memories the key has, without reading every match each time.
 */
export async function firstInScope<T>(limit: number, read: (head: number) => Promise<{ rows: T[]; exhausted: boolean }>): Promise<T[]> {
  for (let head = limit + Math.ceil(limit / 10) + 4; ; head *= 4) {
    const { rows, exhausted } = await read(head);
    if (rows.length >= limit || exhausted) return rows.slice(0, limit);
  }
}
