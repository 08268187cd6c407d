import type { Selectable } from 'kysely';
import type { Db } from '../../db/open.ts';
import type { MemoryRow, MemoryVersionRow, TombstonesTable } from '../../db/schema.ts';
import { versionRowsOf } from '../../memory/history.repository.ts';
import { countMemoryRows, streamMemoryRows } from '../../memory/memory.repository.ts';
import { supersessionsEnding } from '../../memory/supersession.repository.ts';
import { countTombstones, tombstonePage } from '../../memory/tombstone.repository.ts';
import type { BundleLine, BundleMemory, BundleTombstone, BundleVersion } from './bundleFormat.ts';

/** Memories read per page: their versions and supersessions are read with them, a query each. */
const PAGE = 500;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Everything of one key (null: of every key), archived, expired and superseded memories included. */
const everything = (apiKeyId: string | null) => ({ apiKeyId, includeArchived: true, validity: 'all' as const });

/** How many lines the bundle's body will have, for a progress bar: read before, so a write meanwhile may change it. */
export async function bundleSize(db: Db, apiKeyId: string | null) {
  return (await countMemoryRows(db, everything(apiKeyId))) + (await countTombstones(db, apiKeyId));
}

/**
 * The bundle's body, a line at a time: the memories newest first, a page of them read at a time with their versions
 * and the supersessions that ended them, then the tombstones; nothing is held beyond one page.
 */
export async function* bundleLines(db: Db, apiKeyId: string | null): AsyncGenerator<BundleLine> {
  let page: MemoryRow[] = [];
  for await (const row of streamMemoryRows(db, everything(apiKeyId), PAGE)) {
    page.push(row);
    if (page.length === PAGE) {
      yield* await memoryLines(db, page);
      page = [];
    }
  }
  yield* await memoryLines(db, page);
  for (let afterId = 0; ; ) {
    const rows = await tombstonePage(db, { apiKeyId, afterId, limit: PAGE });
    for (const t of rows) yield tombstoneLine(t);
    if (rows.length < PAGE) return;
    afterId = rows[rows.length - 1]!.id;
  }
}

async function memoryLines(db: Db, rows: MemoryRow[]): Promise<BundleMemory[]> {
  if (rows.length === 0) return [];
  const versions = new Map<number, MemoryVersionRow[]>();
  for (const v of await versionRowsOf(
    db,
    rows.map((r) => r.pk),
  ))
    versions.set(v.memory_pk, [...(versions.get(v.memory_pk) ?? []), v]);
  const superseded = rows.filter((r) => r.superseded_by !== null);
  const endings = new Map<string, { rule: string; sentence: string | null }>();
  for (const apiKeyId of new Set(superseded.map((r) => r.api_key_id))) {
    const ids = superseded.filter((r) => r.api_key_id === apiKeyId).map((r) => r.id);
    for (const s of await supersessionsEnding(db, apiKeyId, ids)) endings.set(`${s.old_id}\u0000${s.new_id}`, s);
  }
  return rows.map((r) => {
    const ending = r.superseded_by === null ? undefined : endings.get(`${r.id}\u0000${r.superseded_by}`);
    return {
      kind: 'memory',
      id: r.id,
      apiKeyId: r.api_key_id,
      sessionId: r.session_id,
      type: r.type,
      key: r.key,
      content: r.content,
      metadata: JSON.parse(r.metadata) as Record<string, unknown>,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
      expiresAt: iso(r.expires_at),
      validFrom: iso(r.valid_from)!,
      validTo: iso(r.valid_to),
      // A memory handed on by a deletion (migration 021) may be superseded with no record of why: "unrecorded".
      supersededBy:
        r.superseded_by === null ? null : { id: r.superseded_by, rule: ending?.rule ?? 'unrecorded', sentence: ending?.sentence ?? null },
      versions: (versions.get(r.pk) ?? []).map(versionLine),
    };
  });
}

function versionLine(v: MemoryVersionRow): BundleVersion {
  return {
    content: v.content,
    type: v.type,
    metadata: JSON.parse(v.metadata) as Record<string, unknown>,
    expiresAt: iso(v.expires_at),
    validFrom: iso(v.valid_from),
    validTo: iso(v.valid_to),
    supersededBy: v.superseded_by,
    changedAt: iso(v.changed_at)!,
    changedBy: v.changed_by,
    reason: v.reason,
  };
}

function tombstoneLine(t: Selectable<TombstonesTable>): BundleTombstone {
  return {
    kind: 'tombstone',
    apiKeyId: t.api_key_id,
    sessionId: t.session_id,
    memoryId: t.memory_id,
    keyDigest: t.key_digest,
    deletedAt: iso(t.deleted_at)!,
    deletedBy: t.deleted_by,
  };
}
