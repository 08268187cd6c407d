import type { Kysely } from 'kysely';

// Frozen once shipped. A local embeddings server (Ollama, vLLM, a LiteLLM proxy on the host) needs no API key:
// marked keyless, it counts as configured without a dummy key, and requests carry no Authorization header.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('model_providers')
    .addColumn('keyless', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model_providers').dropColumn('keyless').execute();
}
