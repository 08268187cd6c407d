import type { Kysely } from 'kysely';

// Frozen once shipped. forgetApiKey erases every trace of a key; a gateway token bound to that key may call it only when
// the admin allowed it when minting the token (1), never by default.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('access_tokens')
    .addColumn('may_forget_key', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').dropColumn('may_forget_key').execute();
}
