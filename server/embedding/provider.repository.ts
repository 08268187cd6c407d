import type { Db } from '../db/open.ts';

export async function listProviderRows(db: Db) {
  return db.selectFrom('model_providers').selectAll().orderBy('id').execute();
}

export async function findProviderRow(db: Db, id: string) {
  return db.selectFrom('model_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Inserts a provider or replaces its URL and models. The API key and the keyless mark are written only when given
 * (undefined keeps the stored ones; a null key removes it).
 */
export async function upsertProviderRow(
  db: Db,
  p: { id: string; baseUrl: string; apiKey: string | null | undefined; keyless: boolean | undefined; models: string; now: number },
) {
  await db
    .insertInto('model_providers')
    .values({ id: p.id, base_url: p.baseUrl, api_key: p.apiKey ?? null, keyless: p.keyless ? 1 : 0, models: p.models, updated_at: p.now })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        base_url: p.baseUrl,
        models: p.models,
        updated_at: p.now,
        ...(p.apiKey === undefined ? {} : { api_key: p.apiKey }),
        ...(p.keyless === undefined ? {} : { keyless: p.keyless ? 1 : 0 }),
      }),
    )
    .execute();
}

/** Whether a provider with this id was there to delete. */
export async function deleteProviderRow(db: Db, id: string) {
  const result = await db.deleteFrom('model_providers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
