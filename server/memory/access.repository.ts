import type { Db } from '../db/open.ts';
import { storeDialect } from '../db/storeDialect.ts';

/** Access counts gathered over many retrievals (see AccessRecorder), by memory pk and by API key. */
export interface AccessBatch {
  memories: Map<number, { count: number; lastAt: number }>;
  keys: Map<string, { retrievals: number; hits: number }>;
}

/** Adds a batch of access counts in one transaction, one statement per table (AccessRecorder sizes the batches). */
export async function writeAccess(db: Db, batch: AccessBatch) {
  const memories = [...batch.memories].map(([pk, a]) => [pk, a.count, a.lastAt] as const);
  const keys = [...batch.keys].map(([key, s]) => [key, s.retrievals, s.hits] as const);
  const write = storeDialect(db);
  await db.transaction().execute(async (trx) => {
    await write.addMemoryAccess(trx, memories);
    await write.addKeyRetrievals(trx, keys);
  });
}
