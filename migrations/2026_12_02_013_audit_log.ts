import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The audit log: one row per admin-level action, append-only. Triggers refuse every update but
// one, and every delete of an entry younger than 30 days (the least retention the settings allow), so neither a bug
// nor a hand-typed statement can rewrite history; the retention job deletes only what is older. The one update:
// forgetApiKey replaces a forgotten key's id by a pseudonym ('forgotten:<uuid>'), so the log keeps who did what and
// when without keeping the key.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    // AUTOINCREMENT: ids of purged entries are never reused, so an id names one entry for good.
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('target', 'text')
    .addColumn('changes', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  // Each filter walks its index in id order, newest first, and stops at the page's end.
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'id']).execute();
  await db.schema
    .createIndex('audit_log_api_key')
    .on('audit_log')
    .columns(['api_key_id', 'id'])
    .where('api_key_id', 'is not', null)
    .execute();
  await sql`create trigger audit_log_append_only
    before update of id, at, actor_id, actor_name, request_id, action, target, changes, outcome on audit_log begin
    select raise(abort, 'the audit log is append-only');
  end`.execute(db);
  await sql`create trigger audit_log_forget_key before update of api_key_id on audit_log
    when old.api_key_id is null or new.api_key_id is null or new.api_key_id not like 'forgotten:%' begin
    select raise(abort, 'the audit log is append-only: an API key id only gives way to a pseudonym when the key is forgotten');
  end`.execute(db);
  await sql`create trigger audit_log_retention_floor before delete on audit_log
    when old.at > cast(unixepoch('subsec') * 1000 as integer) - 30 * 86400000 begin
    select raise(abort, 'audit entries younger than 30 days cannot be deleted');
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
