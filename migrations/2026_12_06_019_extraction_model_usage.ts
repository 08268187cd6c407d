import type { Kysely } from 'kysely';

// Frozen once shipped. Tokens the extraction model used per API key and UTC day, so each key's daily budget holds
// across restarts and across the processes sharing the database; forgetApiKey deletes a key's rows.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('extraction_model_usage')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('extraction_model_usage_pk', ['api_key_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('extraction_model_usage').execute();
}
