import { type Kysely, sql } from 'kysely';

// Frozen once shipped. A summary holds the text of the memories it archived, so it must follow them:
// - deleting an archived original, or bringing it back (an edit, a restatement with new content), queues its summary
//   in summary_rebuilds; the write that did it rebuilds the summary from what remains, in the same transaction
//   (server/memory/coveringSummaries.ts);
// - deleting a summary brings back the originals it archived: they are no longer covered by anything.
// Summaries used to be written key-wide over every session: one that covers a session's memories would inject that
// session's text into every other session, so such summaries are undone here (their originals come back).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('summary_rebuilds')
    .addColumn('summary_id', 'text', (c) => c.primaryKey())
    .execute();
  const queue = (summaryId: string) => `insert into summary_rebuilds (summary_id) values (${summaryId}) on conflict do nothing;`;
  await sql
    .raw(
      `create trigger summary_rebuild_on_delete after delete on memories when old.archived_by is not null begin
        ${queue('old.archived_by')}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger summary_rebuild_on_unarchive after update of archived_by on memories
        when old.archived_by is not null and old.archived_by is not new.archived_by begin
        ${queue('old.archived_by')}
      end`,
    )
    .execute(db);
  await sql`create trigger summary_delete_restores after delete on memories when old.key like 'summary:%' begin
    update memories set archived_by = null where archived_by = old.id;
  end`.execute(db);

  await sql`delete from memories where key like 'summary:%' and session_id is null
    and exists (select 1 from memories o where o.archived_by = memories.id and o.session_id is not null)`.execute(db);
  await sql`delete from summary_rebuilds`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger summary_delete_restores`.execute(db);
  await sql`drop trigger summary_rebuild_on_unarchive`.execute(db);
  await sql`drop trigger summary_rebuild_on_delete`.execute(db);
  await db.schema.dropTable('summary_rebuilds').execute();
}
