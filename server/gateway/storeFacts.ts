import { SYSTEM_ACTOR } from '../audit/audit.service.ts';
import { AUTHORS } from '../memory/change.ts';
import { findMemoryRowById } from '../memory/memory.repository.ts';
import { createMemory, type MemoryDeps } from '../memory/memory.service.ts';
import { type Memory, rowToMemory } from '../memory/memory.ts';
import { addToMetadataList } from '../memory/storeOnce.ts';
import { heldMemory, supersede, supersedeAll } from '../memory/supersession.service.ts';
import type { Settings } from '../settings/settings.service.ts';
import type { ExtractedFact } from './extraction.ts';
import { type FactLookup, factRows, nextVersion } from './factCandidates.repository.ts';
import { FactPool, keyFree } from './factPool.ts';
import { candidateKeys, supersededBy, versionOf } from './supersessionRules.ts';

/** Extraction's supersessions: mnemo's in the audit log, extraction's in the histories of the memories they end. */
const BY_EXTRACTION = { actor: SYSTEM_ACTOR, author: AUTHORS.extraction };

/** Where a batch of facts came from, kept in each memory's metadata. */
export interface FactOrigin {
  /** 'extraction': the rules; 'model': the extraction model. */
  source: 'extraction' | 'model';
  role: 'user' | 'assistant';
  sessionId: string | null;
  extractedAt: string;
  /** The captured turn the facts were said in (gateway/capture.ts), when it was captured. */
  sourceTurn?: string | null;
  /**
   * When the message was said, if the caller knows: the facts hold from then (their validFrom), so a replayed
   * conversation's facts are placed in time, and supersede, in the order they were said. Arrival otherwise.
   */
  saidAt?: Date | null;
}

export interface FactDeps extends MemoryDeps {
  /** False stores each fact without asking what it supersedes: only to measure what supersession changes (the eval). */
  supersedeFacts?: boolean;
}

/**
 * Stores extracted facts as memories of the key (or merges them into the memories they restate), on the caller's
 * connection (run it in a transaction for all or none, with the settings read before it). Facts describe the user,
 * not the conversation, so they are stored key-wide; the session they came from is kept in metadata, and the turn
 * they were said in as sourceTurn. Each fact first supersedes the current memories the rules say it replaces
 * (gateway/supersessionRules.ts), with the rule and its sentence; nothing is overwritten by it.
 */
export async function storeFacts(
  deps: FactDeps,
  apiKeyId: string,
  facts: readonly ExtractedFact[],
  origin: FactOrigin,
  settings: Settings,
): Promise<Memory[]> {
  const stored: Memory[] = [];
  const lookups = deps.supersedeFacts === false ? null : facts.map(lookupOf);
  const pool = lookups && (await messagePool(deps, apiKeyId, lookups));
  for (const [i, fact] of facts.entries()) {
    const metadata = {
      source: origin.source,
      category: fact.category,
      polarity: fact.polarity,
      role: origin.role,
      sessionId: origin.sessionId,
      extractedAt: origin.extractedAt,
    };
    const withTurn = origin.sourceTurn ? { ...metadata, sourceTurn: origin.sourceTurn } : metadata;
    const lookup = lookups?.[i];
    const read = lookup && { lookup, pool: pool ?? new FactPool(await factRows(deps.db, apiKeyId, [lookup])) };
    stored.push(await storeFact(deps, apiKeyId, fact, withTurn, { origin, settings, read }));
  }
  return stored;
}

/**
 * Stores facts said in a captured turn and links both ways: each fact names the turn in sourceTurn, the turn lists the
 * facts. Run it in a transaction. `turn` is the turn as just captured, or the id of one captured earlier, which may
 * have been deleted since (the extraction model answers later): the facts are then stored without a source. Returns
 * the facts and the turn as it is now.
 */
export async function storeFactsOfTurn(
  deps: FactDeps,
  apiKeyId: string,
  facts: readonly ExtractedFact[],
  origin: Omit<FactOrigin, 'sourceTurn'>,
  captured: Memory | string | null,
  settings: Settings,
): Promise<{ memories: Memory[]; turn: Memory | null }> {
  const turn = typeof captured === 'string' ? await turnOfKey(deps, apiKeyId, captured) : captured;
  const memories = await storeFacts(deps, apiKeyId, facts, { ...origin, sourceTurn: turn?.id ?? null }, settings);
  if (turn === null || memories.length === 0) return { memories, turn };
  const ids = memories.map((m) => m.id);
  return { memories, turn: await addToMetadataList(deps.db, turn, 'facts', ids) };
}

const lookupOf = (fact: ExtractedFact): FactLookup => ({ ...candidateKeys(fact), key: fact.key });

/**
 * The pool of the whole message, when it is stored in a transaction and one read held every fact's candidates: no
 * other writer changes them before it commits, and the message's own writes are kept in the pool as they are made.
 * Else null, and each fact reads its own when its turn comes.
 */
async function messagePool(deps: FactDeps, apiKeyId: string, lookups: readonly FactLookup[]): Promise<FactPool | null> {
  if (!deps.db.isTransaction || lookups.length < 2) return null;
  const read = await factRows(deps.db, apiKeyId, lookups);
  return read.complete ? new FactPool(read) : null;
}

/** The captured turn with this id, if it is still there and the key's. */
async function turnOfKey(deps: FactDeps, apiKeyId: string, id: string): Promise<Memory | null> {
  const row = await findMemoryRowById(deps.db, id);
  return row && row.api_key_id === apiKeyId ? rowToMemory(row) : null;
}

async function storeFact(
  deps: FactDeps,
  apiKeyId: string,
  fact: ExtractedFact,
  metadata: Record<string, unknown>,
  o: { origin: FactOrigin; settings: Settings; read: { lookup: FactLookup; pool: FactPool } | undefined },
): Promise<Memory> {
  const why = o.origin.source === 'model' ? 'said in a message (extraction model)' : 'said in a message';
  const write = (key: string, keyHeld: boolean) =>
    createMemory(
      deps,
      { apiKeyId, type: fact.type, key, content: fact.content, metadata, validFrom: o.origin.saidAt ?? null },
      { by: AUTHORS.extraction, why },
      { keyFromText: true, keyHeld, settings: o.settings },
    );
  if (o.read === undefined) return write(fact.key, false);
  const { pool } = o.read;
  const { current: candidates, keyHolder } = pool.lookup(o.read.lookup);
  const stale = supersededBy(fact, candidates);
  const superseding = new Set(stale.map((s) => s.id));
  // A memory of the fact's key (or a later version of it) that stays current is written over, as before: the same
  // fact said again, or said otherwise. One that is superseded keeps its key, and the new fact takes the next version.
  const holder = candidates.find((c) => versionOf(c.key) === fact.key && !superseding.has(c.id));
  const key =
    holder?.key ??
    (keyFree(keyHolder, superseding) ? fact.key : (pool.nextVersion(fact.key) ?? (await nextVersion(deps.db, apiKeyId, fact.key))));
  const memory = await write(key, holder !== undefined);
  pool.wrote(memory);
  const sentence = fact.source;
  const from = memory.validFrom.getTime();
  const candidate = (id: string) => candidates.find((c) => c.id === id)!;
  // In a transaction, the candidates read in it and the memory just written are as the supersessions would read them.
  const written = heldMemory(memory);
  const held = deps.db.isTransaction;
  const ending = stale.filter((s) => candidate(s.id).valid_from <= from);
  await supersedeAll(
    deps,
    ending.map(({ id, rule }) => ({ apiKeyId, oldId: id, newId: memory.id, rule, sentence })),
    BY_EXTRACTION,
    held ? ending.map(({ id }) => ({ old: candidate(id), replacement: written })) : undefined,
  );
  pool.ended(
    ending.map((s) => s.id),
    { validTo: from, newId: memory.id },
  );
  // Said before what it contradicts (a conversation replayed out of order): the later statement stands, and this one
  // is stored as already superseded by it.
  const later = stale.find((s) => candidate(s.id).valid_from > from);
  if (later === undefined) return memory;
  const request = { apiKeyId, oldId: memory.id, newId: later.id, rule: later.rule, sentence };
  await supersede(deps, request, BY_EXTRACTION, held ? { old: written, replacement: candidate(later.id) } : undefined);
  const validTo = candidate(later.id).valid_from;
  pool.ended([memory.id], { validTo, newId: later.id });
  return memory;
}
