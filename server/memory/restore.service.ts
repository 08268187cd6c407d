import { afterErase } from '../db/maintenance.ts';
import type { MemoryVersionRow } from '../db/schema.ts';
import { AUTHORS, changing } from './change.ts';
import { replaceVersions, versionRows } from './history.repository.ts';
import type { MemoryVersion } from './history.service.ts';
import { type MemoryDeps, writing } from './memory.service.ts';
import * as repo from './restore.repository.ts';
import { insertSupersessions } from './supersession.repository.ts';
import { insertTombstones } from './tombstone.repository.ts';
import { keyDigest, recordDeletions } from './tombstones.ts';

/**
 * What an import brings back of a memory beyond its fields, from mnemo's export bundle or another system's history
 * (mem0's): the versions its history kept, when it was last written, and what superseded it. Ids are the source's:
 * `ids` maps them to the memories they were imported as.
 */

/** A version as the source kept it; its supersededBy is the source's id of what superseded the memory then. */
export type RestoredVersion = Omit<MemoryVersion, 'version'>;

export interface RestoredMemory {
  /** Oldest first. */
  versions: RestoredVersion[];
  updatedAt?: Date | null;
  /** The source's id of the memory that replaced this one, with the rule and sentence that did. */
  supersededBy?: { id: string; rule: string; sentence: string | null } | null;
}

/** The memory an import row was stored as, and whether this import created it. */
export interface ImportedMemory {
  pk: number;
  id: string;
  apiKeyId: string;
  validTo: number | null;
  supersededBy: string | null;
  created: boolean;
}

export interface RestoredTombstone {
  apiKeyId: string;
  sessionId: string | null;
  memoryId: string;
  keyDigest: string;
  deletedAt: Date;
  deletedBy: string;
}

const versionKey = (v: Pick<MemoryVersionRow, 'changed_at' | 'changed_by' | 'reason' | 'content'>) =>
  [v.changed_at, v.changed_by, v.reason, v.content].join('\u0000');

/**
 * Brings back a memory's history, supersession and time of last writing. A memory this import created gets the
 * source's versions as its own; one that was already stored keeps its versions and gains those of the source it
 * lacks, in time order. Either way at most historyVersionsKept, the newest, so importing the same file again changes
 * nothing. The supersession is linked when the memory that replaced it was imported too (a memory the file does not
 * hold stays one that no longer holds, replaced by nothing named), and so is a version's: one naming a memory the
 * file does not hold names none. In the caller's transaction when it is one (the settings read before it). Returns how
 * many versions the memory keeps.
 */
export async function restoreMemory(
  deps: Pick<MemoryDeps, 'db' | 'now'>,
  target: ImportedMemory,
  restore: RestoredMemory,
  o: { ids: ReadonlyMap<string, string>; historyVersionsKept: number },
): Promise<number> {
  const { ids, historyVersionsKept: kept } = o;
  const at = deps.now();
  return writing(deps.db, (trx) =>
    changing(trx, { by: AUTHORS.import, why: 'import', at }, async () => {
      const newId = restore.supersededBy ? ids.get(restore.supersededBy.id) : undefined;
      // The import's upsert wrote the memory as last written when it was created (memoryRow), as retention reads it.
      if (restore.updatedAt) await repo.setRestored(trx, target.pk, { updatedAt: restore.updatedAt.getTime() });
      // Linked once: a memory superseded here already (by this bundle before, or by a memory of this store) stays so.
      if (newId !== undefined && target.validTo !== null && target.supersededBy === null && restore.supersededBy) {
        await repo.setRestored(trx, target.pk, { supersededBy: newId });
        await insertSupersessions(trx, [
          {
            api_key_id: target.apiKeyId,
            old_id: target.id,
            new_id: newId,
            rule: restore.supersededBy.rule,
            sentence: restore.supersededBy.sentence,
            valid_to: target.validTo,
            recorded_at: at,
            undone_at: null,
          },
        ]);
      }
      const incoming = restore.versions.map((v) => ({
        content: v.content,
        type: v.type,
        metadata: JSON.stringify(v.metadata),
        expires_at: v.expiresAt?.getTime() ?? null,
        valid_from: v.validFrom?.getTime() ?? null,
        valid_to: v.validTo?.getTime() ?? null,
        superseded_by: v.supersededBy === null ? null : (ids.get(v.supersededBy) ?? null),
        changed_at: v.changedAt.getTime(),
        changed_by: v.changedBy,
        reason: v.reason,
      }));
      // A memory this import created has no history here but the version the link above kept: the import's own doing.
      const own = target.created ? [] : (await versionRows(trx, target.pk)).reverse();
      const seen = new Set(own.map(versionKey));
      const merged = [...own, ...incoming.filter((v) => !seen.has(versionKey(v)))].sort((a, b) => a.changed_at - b.changed_at);
      const versions = kept === 0 ? [] : merged.slice(-kept);
      const unchanged = !target.created && versions.length === own.length && versions.every((v, i) => v === own[i]);
      if (!unchanged) await replaceVersions(trx, target.pk, versions);
      return versions.length;
    }),
  );
}

/**
 * Records another store's tombstones (each once) and carries out their deletions here: a memory of the same key and
 * session whose key has the tombstone's digest, last written before the tombstone, is deleted (with a tombstone of
 * its own, by 'import'). Memories that this import wrote (`spared`) are never deleted. Returns how many were.
 */
export async function applyTombstones(
  deps: MemoryDeps,
  tombstones: readonly RestoredTombstone[],
  spared: ReadonlySet<string>,
): Promise<number> {
  let deleted = 0;
  const at = deps.now();
  const byKey = new Map<string, RestoredTombstone[]>();
  for (const t of tombstones) byKey.set(t.apiKeyId, [...(byKey.get(t.apiKeyId) ?? []), t]);
  for (const [apiKeyId, ofKey] of byKey) {
    await insertTombstones(
      deps.db,
      ofKey.map((t) => ({
        api_key_id: t.apiKeyId,
        session_id: t.sessionId,
        memory_id: t.memoryId,
        key_digest: t.keyDigest,
        deleted_at: t.deletedAt.getTime(),
        deleted_by: t.deletedBy,
      })),
    );
    const latest = new Map<string, number>();
    for (const t of ofKey) {
      const scoped = `${t.sessionId ?? ''}\u0000${t.keyDigest}`;
      latest.set(scoped, Math.max(latest.get(scoped) ?? 0, t.deletedAt.getTime()));
    }
    const before = Math.max(...latest.values());
    for (let afterPk = 0; ; ) {
      const page = await repo.writtenBefore(deps.db, { apiKeyId, before, afterPk, limit: 1000 });
      const doomed = page.filter((m) => {
        const deletedAt = latest.get(`${m.session_id ?? ''}\u0000${keyDigest(m.key)}`);
        return deletedAt !== undefined && m.updated_at < deletedAt && !spared.has(m.id);
      });
      if (doomed.length > 0) {
        deleted += await writing(deps.db, async (trx) => {
          const rows = await repo.deleteByPks(
            trx,
            doomed.map((m) => m.pk),
          );
          await recordDeletions(trx, rows, AUTHORS.import, at);
          return rows.length;
        });
      }
      if (page.length < 1000) break;
      afterPk = page[page.length - 1]!.pk;
    }
  }
  if (deleted > 0) await afterErase(deps.db);
  return deleted;
}
