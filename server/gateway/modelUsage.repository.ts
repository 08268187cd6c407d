import type { Db } from '../db/open.ts';

/** Tokens and calls the extraction model used for the key on the day (YYYY-MM-DD, UTC); zeros when none. */
export async function usageOn(db: Db, apiKeyId: string, day: string): Promise<{ tokens: number; calls: number }> {
  const row = await db
    .selectFrom('extraction_model_usage')
    .select(['tokens', 'calls'])
    .where('api_key_id', '=', apiKeyId)
    .where('day', '=', day)
    .executeTakeFirst();
  return { tokens: Number(row?.tokens ?? 0), calls: Number(row?.calls ?? 0) };
}

/** Adds one call and its tokens to the key's day. */
export async function addUsage(db: Db, apiKeyId: string, day: string, tokens: number): Promise<void> {
  await db
    .insertInto('extraction_model_usage')
    .values({ api_key_id: apiKeyId, day, tokens, calls: 1 })
    .onConflict((oc) =>
      oc.columns(['api_key_id', 'day']).doUpdateSet((eb) => ({
        tokens: eb('extraction_model_usage.tokens', '+', eb.ref('excluded.tokens')),
        calls: eb('extraction_model_usage.calls', '+', 1),
      })),
    )
    .execute();
}
