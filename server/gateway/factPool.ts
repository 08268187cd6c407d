import type { Memory } from '../memory/memory.ts';
import { heldMemory } from '../memory/supersession.service.ts';
import { type FactLookup, type FactRow, MAX_CANDIDATES, VERSION, versionAfter } from './factCandidates.repository.ts';

/** The memory that holds a key, and whether it still holds (is not superseded). */
export interface KeyHolder {
  id: string;
  current: boolean;
}

/**
 * What the facts of one message may supersede, read once for all of them (factCandidates.repository.ts factRows) and
 * kept as the message's own writes change it: each fact's memory as written, each supersession as marked. In the
 * transaction that stores the message, a fact's lookup then finds what a read of its own would find, one statement
 * for the message instead of one per fact.
 */
export class FactPool {
  private readonly rows = new Map<string, FactRow>();
  private readonly complete: boolean;

  constructor(read: { rows: readonly FactRow[]; complete: boolean }) {
    for (const row of read.rows) this.rows.set(row.id, row);
    this.complete = read.complete;
  }

  /**
   * The lookup's current memories, the holder of its own key first and then the most recently updated, at most
   * MAX_CANDIDATES; and the memory holding its key whatever its state, if any.
   */
  lookup({ keys, prefixes, key }: FactLookup): { current: FactRow[]; keyHolder: KeyHolder | null } {
    const names = (k: string) =>
      k === key || keys.some((own) => k === own || k.startsWith(`${own}${VERSION}`)) || prefixes.some((p) => k.startsWith(p));
    const rows = [...this.rows.values()];
    const current = rows
      .filter((r) => r.valid_to === null && r.archived_by === null && names(r.key))
      .sort((a, b) => Number(b.key === key) - Number(a.key === key) || b.updatedAt - a.updatedAt)
      .slice(0, MAX_CANDIDATES);
    const holder = rows.find((r) => r.key === key);
    return { current, keyHolder: holder ? { id: holder.id, current: holder.valid_to === null } : null };
  }

  /**
   * The next version of a lookup's own key (factCandidates.repository.ts nextVersion), from the versions the read holds;
   * null when the read stopped early and may have missed one.
   */
  nextVersion(key: string): string | null {
    if (!this.complete) return null;
    return versionAfter(
      key,
      [...this.rows.values()].map((r) => r.key),
    );
  }

  /** A memory as a write of the message left it: new, upserted, or the one a paraphrase was merged into. */
  wrote(m: Memory): void {
    const { pk, id, valid_from, valid_to, superseded_by, archived_by } = heldMemory(m);
    const updatedAt = m.updatedAt.getTime();
    this.rows.set(id, {
      pk,
      id,
      key: m.key,
      content: m.content,
      metadata: m.metadata,
      valid_from,
      valid_to,
      superseded_by,
      archived_by,
      updatedAt,
    });
  }

  /** Memories a supersession of the message ended: no longer current from `validTo`, replaced by `newId`. */
  ended(ids: readonly string[], by: { validTo: number; newId: string }): void {
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) this.rows.set(id, { ...row, valid_to: by.validTo, superseded_by: by.newId, archived_by: null });
    }
  }
}

/**
 * Whether a key is free for a new fact: no memory holds it, or the one that does is current and not about to be
 * superseded (the write then upserts it, as every write of a key does).
 */
export function keyFree(holder: KeyHolder | null, superseding: ReadonlySet<string>): boolean {
  return holder === null || (holder.current && !superseding.has(holder.id));
}
