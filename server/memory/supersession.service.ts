import { z } from 'zod';
import { type AuditActor, recordAudit, recordAudits, SYSTEM_ACTOR } from '../audit/audit.service.ts';
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

/** The two memories of a supersession, as the caller read them in the transaction it runs in. */
export interface HeldPair {
  old: HeldMemory;
  replacement: HeldMemory;
}

/**
 * Marks `oldId` superseded by `newId`, both memories of `apiKeyId`, in one transaction (the caller's, when it is in
 * one): the old memory's validTo becomes `at` (the new one's validFrom by default), its supersededBy the new id, and
 * its history keeps the version it was (by `by.author`, why "superseded (rule)"); a summary that archived it is
 * rebuilt without it; the supersession is recorded, and so is an audit entry. Idempotent: the same supersession again
 * changes nothing and returns the one in force. Refused, with nothing changed: a memory of another key (NOT_FOUND, as
 * if absent), a memory superseding itself, an old memory that no longer holds, a new one that no longer holds, and a
 * new fact that started before the old one did (the replay of a conversation supersedes in the order things were
 * said). `held`: the two memories as the caller read them in the same transaction, which are then not read again:
 * extraction holds them, and a supersession on the write path is one statement fewer.
 */
export async function supersede(
  deps: SupersessionDeps,
  request: SupersedeRequest,
  by: AuditBy = { actor: SYSTEM_ACTOR },
  held?: HeldPair,
): Promise<Supersession> {
  const [done] = await supersedeAll(deps, [request], by, held && [held]);
  return done!;
}

/**
 * Carries out supersessions of one API key's memories, each as `supersede` does, in one transaction and all or none:
 * the whole batch is refused when one of them is. It costs a statement per kind of write (the marks of each rule, the
 * records, the audit entries), not per supersession: a switch of tool ends every fact about the old one. `held[i]` is
 * request i's pair, as `supersede` takes it. Each memory ends at most once in a batch, and none that ends replaces
 * another in it: every check reads the memories as they were before the batch.
 */
export async function supersedeAll(
  deps: SupersessionDeps,
  requests: readonly SupersedeRequest[],
  by: AuditBy = { actor: SYSTEM_ACTOR },
  held?: readonly HeldPair[],
): Promise<Supersession[]> {
  const now = deps.now();
  const valid = requests.map((request) => parseInputAt(supersedeSchema, request, now));
  if (valid.some((v) => v.oldId === v.newId)) throw badInput('a memory cannot supersede itself');
  const apiKeyId = valid[0]?.apiKeyId;
  if (apiKeyId === undefined) return [];
  const ending = new Set(valid.map((v) => v.oldId));
  if (valid.some((v) => v.apiKeyId !== apiKeyId) || ending.size < valid.length || valid.some((v) => ending.has(v.newId))) {
    throw new Error('a batch of supersessions is of one API key, and ends each memory once and none that replaces another');
  }
  return inTransaction(deps.db, async (trx) => {
    const pairs = held ?? (await pairsOfKey(trx, apiKeyId, valid));
    const done: Supersession[] = [];
    const marks = new Map<string, { rule: string; validTo: number; newId: string; olds: { i: number; old: HeldMemory }[] }>();
    for (const [i, v] of valid.entries()) {
      const { old, replacement } = pairs[i]!;
      if (old.superseded_by === v.newId) {
        const inForce = await repo.supersessionInForce(trx, apiKeyId, v.oldId, v.newId);
        if (inForce) {
          done[i] = toSupersession(inForce);
          continue;
        }
      }
      if (old.valid_to !== null) {
        throw badInput(
          `memory ${old.id} no longer holds${old.superseded_by ? ` (superseded by ${old.superseded_by})` : ''}: restore it first`,
        );
      }
      if (replacement.valid_to !== null) throw badInput(`memory ${replacement.id} no longer holds, so it cannot supersede another`);
      const validTo = v.at?.getTime() ?? replacement.valid_from;
      if (validTo < old.valid_from) {
        throw badInput(
          `memory ${old.id} holds from ${new Date(old.valid_from).toISOString()}, after ${new Date(validTo).toISOString()}: it cannot stop holding before it started`,
        );
      }
      // One statement marks every memory ended by the same rule, at the same time, by the same memory: the history
      // trigger reads why from the change context, which holds one rule at a time.
      const mark = `${v.rule} ${validTo} ${v.newId}`;
      const group = marks.get(mark) ?? { rule: v.rule, validTo, newId: v.newId, olds: [] };
      group.olds.push({ i, old });
      marks.set(mark, group);
    }
    const marked = [...marks.values()];
    for (const { rule, validTo, newId, olds } of marked) {
      const change = { by: by.author ?? AUTHORS.system, why: supersededWhy(rule), at: now };
      const pks = await changing(trx, change, () =>
        repo.markSuperseded(
          trx,
          olds.map((o) => o.old.pk),
          { validTo, newId },
        ),
      );
      const raced = olds.find((o) => !pks.includes(o.old.pk));
      if (raced) throw badInput(`memory ${raced.old.id} was superseded by another write meanwhile`);
    }
    const ended = marked.flatMap((m) => m.olds.map((o) => ({ ...o, validTo: m.validTo, v: valid[o.i]! })));
    if (ended.length === 0) return done;
    // Only an original a summary archived queues a rebuild when it stops holding (markSuperseded).
    if (ended.some((e) => e.old.archived_by !== null)) await rebuildStaleSummaries(trx);
    const rows = await repo.insertSupersessions(
      trx,
      ended.map(({ v, validTo }) => ({
        api_key_id: apiKeyId,
        old_id: v.oldId,
        new_id: v.newId,
        rule: v.rule,
        sentence: v.sentence ?? null,
        valid_to: validTo,
        recorded_at: now,
        undone_at: null,
      })),
    );
    await recordAudits(
      { db: trx, now: deps.now },
      ended.map(({ v }) => ({
        actor: by.actor,
        requestId: by.requestId,
        action: 'MEMORY_SUPERSEDE' as const,
        apiKeyId,
        // Ids and the rule only: the sentence is the user's text, which the audit log never holds.
        target: { oldId: v.oldId, newId: v.newId, rule: v.rule },
      })),
    );
    for (const { i, v } of ended) done[i] = toSupersession(rows.find((r) => r.old_id === v.oldId)!);
    return done;
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
 * Each request's two memories, of the key, read in one statement, or NOT_FOUND: another key's memory is reported as
 * absent, so ids reveal nothing across keys.
 */
async function pairsOfKey(db: Db, apiKeyId: string, requests: readonly { oldId: string; newId: string }[]): Promise<HeldPair[]> {
  const rows = await memoryRowsOfKey(db, apiKeyId, [...new Set(requests.flatMap((r) => [r.oldId, r.newId]))]);
  const ofKey = (id: string) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw notFound(`no memory with id ${id}`);
    return row;
  };
  return requests.map((r) => ({ old: ofKey(r.oldId), replacement: ofKey(r.newId) }));
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
