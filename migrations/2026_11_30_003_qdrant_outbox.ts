import { type Kysely, sql } from 'kysely';

// Frozen once shipped. Changes that Qdrant must follow, queued in the same transaction as the change, so a
// memory is never lost or left behind in Qdrant because Qdrant was down when it was written.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('qdrant_outbox')
    .addColumn('pk', 'integer', (c) => c.primaryKey())
    .addColumn('op', 'text', (c) => c.notNull().check(sql`op in ('upsert', 'delete')`))
    .addColumn('enqueued_at', 'integer', (c) => c.notNull())
    .execute();
  // Only while Qdrant is the vector store: otherwise the queue would grow with every write for nothing.
  const qdrantActive = `(select value from settings where name = 'vectorStore') = '"QDRANT"'`;
  await sql
    .raw(
      `create trigger qdrant_outbox_delete after delete on memories when ${qdrantActive} begin
        insert into qdrant_outbox (pk, op, enqueued_at) values (old.pk, 'delete', cast(unixepoch('subsec') * 1000 as integer))
          on conflict (pk) do update set op = 'delete', enqueued_at = excluded.enqueued_at;
      end`,
    )
    .execute(db);
  // New content makes the stored point wrong: remove it until the new vector is ready. Filter fields only
  // need the point rewritten with its current vector.
  await sql
    .raw(
      `create trigger qdrant_outbox_update after update of content, type, session_id, expires_at, updated_at, archived_by on memories
        when ${qdrantActive} begin
        insert into qdrant_outbox (pk, op, enqueued_at)
          values (new.pk, case when old.content is new.content then 'upsert' else 'delete' end, cast(unixepoch('subsec') * 1000 as integer))
          on conflict (pk) do update set op = excluded.op, enqueued_at = excluded.enqueued_at;
      end`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists qdrant_outbox_update`.execute(db);
  await sql`drop trigger if exists qdrant_outbox_delete`.execute(db);
  await db.schema.dropTable('qdrant_outbox').execute();
}
