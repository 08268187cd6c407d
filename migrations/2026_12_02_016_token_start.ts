import type { Kysely } from 'kysely';

// Frozen once shipped. The first characters of a token's secret, kept so an admin can tell which stored token a
// gateway holds (the id is not in the secret); null for tokens minted before, whose secret was never kept at all.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').addColumn('token_start', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').dropColumn('token_start').execute();
}
