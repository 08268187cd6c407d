import { z } from 'zod';
import { type AuditActor, recordAudit, SYSTEM_ACTOR } from '../audit/audit.service.ts';
import type { Db } from '../db/open.ts';
import type { MemoryRow, SupersessionRow } from '../db/schema.ts';
import { badInput, notFound } from '../errors.ts';
import { apiKeyIdSchema, identifier, LIMITS, parseInput, parseInputAt, pastDate, text } from '../validation.ts';
import { AUTHORS, changing } from './change.ts';
import { rebuildStaleSummaries } from './coveringSummaries.ts';
import { findMemoryRowById, memoryRowsOfKey } from './memory.repository.ts';
import { type Memory, rowToMemory } from './memory.ts';
import * as repo from './supersession.repository.ts';

/**
 * Supersession: a newer fact replaces an older one, which stops being current (validTo, supersededBy) but is never
 * overwritten or deleted, and the replacement is recorded with its rule and the sentence that triggered it. Each one
 * and each undo is in the audit log. Deciding which fact replaces which is the caller's (a createMemory that names
 * what it supersedes, or extraction's rules); this module only carries it out.
 */

/** The services a supersession needs: the store and the clock. */
export interface SupersessionDeps {
  db: Db;
  now: () => number;
}

/**
 * Who asked: as the audit log names them (extraction and other background writes are the system), and as the memory's
 * history does (change.ts: a token's id, 'admin', 'extraction'…; 'system' when absent).
 */
export interface AuditBy {
  actor: AuditActor;
  requestId?: string | null;
  author?: string;
}

export interface SupersedeRequest {
  apiKeyId: string;
  /** The memory that no longer holds. */
  oldId: string;
  /** The memory that replaces it. */
  newId: string;
  /** What decided it: "caller" for a write that named what it supersedes, else the extraction rule. */
  rule: string;
  /** The sentence that triggered it, when it came from a message. */
  sentence?: string | null;
  /** When the old memory stopped holding; by default when the new one started to (its validFrom). */
  at?: Date | null;
}

export interface Supersession {
  apiKeyId: string;
  oldId: string;
  newId: string;
  rule: string;
  sentence: string | null;
  /** When the old memory stopped holding: its validTo. */
  at: Date;
  recordedAt: Date;
  undoneAt: Date | null;
}

/** What a supersession decides on of each of its two memories. */
export type HeldMemory = Pick<MemoryRow, 'pk' | 'id' | 'valid_from' | 'valid_to' | 'superseded_by' | 'archived_by'>;

/** A memory as a supersession decides on it. */
export const heldMemory = (m: Memory): HeldMemory => ({
  pk: m.pk,
  id: m.id,
  valid_from: m.validFrom.getTime(),
  valid_to: m.validTo?.getTime() ?? null,
  superseded_by: m.supersededBy,
  archived_by: m.archivedBy,
});

/** The rule that `supersedes` on createMemory and memory_add records. */
export const CALLER_RULE = 'caller';

/**
 * Why, in the history of the memory that a supersession ended: its rule only, never the sentence, which is the user's
 * text and goes with the superseding memory (a version outlives it).
 */
export const supersededWhy = (rule: string) => `superseded (${rule})`;
/** Why, in the history of a memory that restoreMemory made current again. */
export const RESTORED = 'restored';

const uuid = (what: string) => z.uuid(`${what} must be a UUID`);
const supersedeSchema = z.object({
  apiKeyId: apiKeyIdSchema,
  oldId: uuid('oldId'),
  newId: uuid('newId'),
  rule: identifier('rule', 64),
  sentence: text('sentence').max(LIMITS.contentChars, `sentence is longer than ${LIMITS.contentChars} characters`).nullish(),
  at: pastDate('at').nullish(),
});

/** Runs `write` in the caller's transaction when it is one, else in a transaction of its own. */
const inTransaction = <T>(db: Db, write: (trx: Db) => Promise<T>) => (db.isTransaction ? write(db) : db.transaction().execute(write));

/**
 * Marks `oldId` superseded by `newId`, both memories of `apiKeyId`, in one transaction (the caller's, when it is in
 * one): the old memory's validTo becomes `at` (the new one's validFrom by default), its supersededBy the new id, and
 * its history keeps the version it was (by `by.author`, why "superseded (rule)"); a
 * summary that archived it is rebuilt without it; the supersession is recorded, and so is an audit entry. Idempotent: the same supersession again changes nothing and
 * returns the one in force. Refused, with nothing changed: a memory of another key (NOT_FOUND, as if absent), a memory
 * superseding itself, an old memory that no longer holds, a new one that no longer holds, and a new fact that started
 * before the old one did (the replay of a conversation supersedes in the order things were said). `held`: the two
 * memories (oldId's, newId's) as the caller read them in the same transaction, of `apiKeyId`, which are then not read
 * again: extraction holds them, and a supersession on the write path is one statement fewer.
 */
export async function supersede(
  deps: SupersessionDeps,
  request: SupersedeRequest,
  by: AuditBy = { actor: SYSTEM_ACTOR },
  held?: { old: HeldMemory; replacement: HeldMemory },
) {
  const now = deps.now();
  const valid = parseInputAt(supersedeSchema, request, now);
  if (valid.oldId === valid.newId) throw badInput('a memory cannot supersede itself');
  return inTransaction(deps.db, async (trx) => {
    const [old, replacement] = held ? [held.old, held.replacement] : await memoriesOfKey(trx, valid.apiKeyId, [valid.oldId, valid.newId]);
    if (old.superseded_by === valid.newId) {
      const inForce = await repo.supersessionInForce(trx, valid.apiKeyId, valid.oldId, valid.newId);
      if (inForce) return toSupersession(inForce);
    }
    if (old.valid_to !== null) {
      throw badInput(
        `memory ${old.id} no longer holds${old.superseded_by ? ` (superseded by ${old.superseded_by})` : ''}: restore it first`,
      );
    }
    if (replacement.valid_to !== null) throw badInput(`memory ${replacement.id} no longer holds, so it cannot supersede another`);
    const validTo = valid.at?.getTime() ?? replacement.valid_from;
    if (validTo < old.valid_from) {
      throw badInput(
        `memory ${old.id} holds from ${new Date(old.valid_from).toISOString()}, after ${new Date(validTo).toISOString()}: it cannot stop holding before it started`,
      );
    }
    const change = { by: by.author ?? AUTHORS.system, why: supersededWhy(valid.rule), at: now };
    const marked = await changing(trx, change, () => repo.markSuperseded(trx, old.pk, { validTo, newId: valid.newId }));
    if (!marked) throw badInput(`memory ${old.id} was superseded by another write meanwhile`);
    // Only an original a summary archived queues a rebuild when it stops holding (markSuperseded).
    if (old.archived_by !== null) await rebuildStaleSummaries(trx);
    const row = await repo.insertSupersession(trx, {
      api_key_id: valid.apiKeyId,
      old_id: valid.oldId,
      new_id: valid.newId,
      rule: valid.rule,
      sentence: valid.sentence ?? null,
      valid_to: validTo,
      recorded_at: now,
      undone_at: null,
    });
    await recordAudit(
      { db: trx, now: deps.now },
      {
        actor: by.actor,
        requestId: by.requestId,
        action: 'MEMORY_SUPERSEDE',
        apiKeyId: valid.apiKeyId,
        // Ids and the rule only: the sentence is the user's text, which the audit log never holds.
        target: { oldId: valid.oldId, newId: valid.newId, rule: valid.rule },
      },
    );
    return toSupersession(row);
  });
}

/**
 * Undoes what made a memory no longer hold: it is current again (validTo and supersededBy cleared), its history keeps
 * the superseded version (why "restored"), its supersessions are marked undone, and the undo is in the audit log. The memory that superseded it stays as it is. A memory that is
 * current already is returned unchanged, and nothing is recorded. `canSee` decides tenancy: another key's memory is
 * NOT_FOUND.
 */
export async function restoreMemory(
  deps: SupersessionDeps,
  id: string,
  canSee: (apiKeyId: string) => boolean,
  by: AuditBy = { actor: SYSTEM_ACTOR },
): Promise<Memory> {
  const memoryId = parseInput(uuid('id'), id);
  return inTransaction(deps.db, async (trx) => {
    const row = await findMemoryRowById(trx, memoryId);
    if (!row || !canSee(row.api_key_id)) throw notFound(`no memory with id ${memoryId}`);
    if (row.valid_to === null) return rowToMemory(row);
    const change = { by: by.author ?? AUTHORS.system, why: RESTORED, at: deps.now() };
    const restored = await changing(trx, change, () => repo.markCurrent(trx, row.pk));
    await repo.undoSupersessions(trx, row.api_key_id, row.id, deps.now());
    await recordAudit(
      { db: trx, now: deps.now },
      {
        actor: by.actor,
        requestId: by.requestId,
        action: 'MEMORY_RESTORE',
        apiKeyId: row.api_key_id,
        target: { id: row.id, supersededBy: row.superseded_by },
      },
    );
    return rowToMemory(restored);
  });
}

/** Why a memory no longer holds: the supersession in force that replaced it, or null (current, or ended on import). */
export async function supersessionOf(deps: Pick<SupersessionDeps, 'db'>, m: Memory): Promise<Supersession | null> {
  if (m.supersededBy === null) return null;
  const row = await repo.supersessionInForce(deps.db, m.apiKeyId, m.id, m.supersededBy);
  return row ? toSupersession(row) : null;
}

/**
 * Memories of the key in the order of `ids`, read in one statement, or NOT_FOUND: another key's memory is reported as
 * absent, so ids reveal nothing across keys.
 */
async function memoriesOfKey(db: Db, apiKeyId: string, ids: readonly [string, string]) {
  const rows = await memoryRowsOfKey(db, apiKeyId, ids);
  const ofKey = (id: string) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw notFound(`no memory with id ${id}`);
    return row;
  };
  return [ofKey(ids[0]), ofKey(ids[1])] as const;
}

function toSupersession(row: SupersessionRow): Supersession {
  return {
    apiKeyId: row.api_key_id,
    oldId: row.old_id,
    newId: row.new_id,
    rule: row.rule,
    sentence: row.sentence,
    at: new Date(row.valid_to),
    recordedAt: new Date(row.recorded_at),
    undoneAt: row.undone_at === null ? null : new Date(row.undone_at),
  };
}
