import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The Qdrant outbox triggers read a flag of their own, qdrant_outbox_state.enabled, which the
// settings repository writes in the same transaction as the vectorStore setting; they no longer read the JSON text
// of the settings row, so how settings are stored can change without stopping Qdrant sync.
const enqueuedAt = `cast(unixepoch('subsec') * 1000 as integer)`;

function outboxTriggers(when: string) {
  return [
    `create trigger qdrant_outbox_delete after delete on memories when ${when} begin
      insert into qdrant_outbox (pk, op, enqueued_at) values (old.pk, 'delete', ${enqueuedAt})
        on conflict (pk) do update set op = 'delete', enqueued_at = excluded.enqueued_at;
    end`,
    // New content makes the stored point wrong: remove it until the new vector is ready. Filter fields only
    // need the point rewritten with its current vector.
    `create trigger qdrant_outbox_update after update of content, type, session_id, expires_at, updated_at, archived_by on memories
      when ${when} begin
      insert into qdrant_outbox (pk, op, enqueued_at)
        values (new.pk, case when old.content is new.content then 'upsert' else 'delete' end, ${enqueuedAt})
        on conflict (pk) do update set op = excluded.op, enqueued_at = excluded.enqueued_at;
    end`,
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('qdrant_outbox_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .execute();
  await sql`insert into qdrant_outbox_state (id, enabled)
    values (1, coalesce((select value = '"QDRANT"' from settings where name = 'vectorStore'), 0))`.execute(db);
  await sql`drop trigger qdrant_outbox_delete`.execute(db);
  await sql`drop trigger qdrant_outbox_update`.execute(db);
  for (const ddl of outboxTriggers('(select enabled from qdrant_outbox_state) = 1')) await sql.raw(ddl).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger qdrant_outbox_delete`.execute(db);
  await sql`drop trigger qdrant_outbox_update`.execute(db);
  for (const ddl of outboxTriggers(`(select value from settings where name = 'vectorStore') = '"QDRANT"'`)) await sql.raw(ddl).execute(db);
  await db.schema.dropTable('qdrant_outbox_state').execute();
}
