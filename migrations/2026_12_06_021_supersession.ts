import { type Kysely, sql } from 'kysely';

// Frozen once shipped. A memory holds when it was true: valid_from (when it started to hold; rows written before this
// migration take their created_at) and valid_to (null while it holds). A newer fact that replaces it sets valid_to and
// superseded_by (the newer memory's id), and the supersession is recorded with its rule and the sentence that
// triggered it; nothing is overwritten or deleted. A memory is current while valid_to is null: every retrieval and
// list reads only current ones unless it asks for the past (asOf) or for superseded ones.
//
// Deleting a memory, by any path (delete, clear, purge, forget), takes the supersessions on either side of it along,
// sentence included, within its API key; the memories it superseded come back as current, or, when it was superseded
// itself, are superseded by what replaced it: no memory stays hidden by one that is gone.
const enqueuedAt = `cast(unixepoch('subsec') * 1000 as integer)`;

export async function up(db: Kysely<any>): Promise<void> {
  // SQLite adds a NOT NULL column only with a default; every row is then given its own time, and mnemo always writes it.
  await sql`alter table memories add column valid_from integer not null default 0`.execute(db);
  await sql`update memories set valid_from = created_at`.execute(db);
  await sql`alter table memories add column valid_to integer`.execute(db);
  await sql`alter table memories add column superseded_by text`.execute(db);
  await sql`create index memories_by_superseding on memories (superseded_by) where superseded_by is not null`.execute(db);

  await db.schema
    .createTable('supersessions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('old_id', 'text', (c) => c.notNull())
    .addColumn('new_id', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('sentence', 'text')
    // When the old memory stopped being true: its valid_to.
    .addColumn('valid_to', 'integer', (c) => c.notNull())
    .addColumn('recorded_at', 'integer', (c) => c.notNull())
    .addColumn('undone_at', 'integer')
    .execute();
  await sql`create index supersessions_by_old on supersessions (old_id)`.execute(db);
  await sql`create index supersessions_by_new on supersessions (new_id)`.execute(db);

  await sql`create trigger memory_supersession_on_delete after delete on memories begin
    delete from supersessions where api_key_id = old.api_key_id and (old_id = old.id or new_id = old.id);
    update memories set superseded_by = old.superseded_by, valid_to = case when old.superseded_by is null then null else valid_to end
      where superseded_by = old.id and api_key_id = old.api_key_id;
  end`.execute(db);

  // Validity is a filter of Qdrant's points too (their payload's "superseded"): a change of it rewrites the point.
  await sql`drop trigger qdrant_outbox_update`.execute(db);
  await sql
    .raw(`create trigger qdrant_outbox_update after update of content, type, session_id, expires_at, updated_at, archived_by, valid_to
      on memories when (select enabled from qdrant_outbox_state) = 1 begin
      insert into qdrant_outbox (pk, op, enqueued_at)
        values (new.pk, case when old.content is new.content then 'upsert' else 'delete' end, ${enqueuedAt})
        on conflict (pk) do update set op = excluded.op, enqueued_at = excluded.enqueued_at;
    end`)
    .execute(db);

  // And of sqlite-vec's: its "archived" column says 0 current, 1 archived by a summary, 2 no longer true. The trigger
  // exists only once a model has built the vec0 table (server/db/triggers.ts creates it with the table from now on).
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'memory_vec'`.execute(db);
  if ((rows[0]?.n ?? 0) > 0) {
    await sql`drop trigger if exists memory_vec_filters`.execute(db);
    await sql`create trigger memory_vec_filters after update of type, session_id, expires_at, updated_at, archived_by, valid_to on memories
      when old.content is new.content begin
      update memory_vec set type = new.type, session_id = coalesce(new.session_id, ''),
        expires_at = coalesce(new.expires_at, ${sql.lit(Number.MAX_SAFE_INTEGER)}), updated_at = new.updated_at,
        archived = case when new.archived_by is not null then 1 when new.valid_to is not null then 2 else 0 end
      where memory_pk = new.pk;
    end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memory_supersession_on_delete`.execute(db);
  await db.schema.dropTable('supersessions').execute();
  await sql`drop index memories_by_superseding`.execute(db);
  await sql`drop trigger qdrant_outbox_update`.execute(db);
  await sql
    .raw(`create trigger qdrant_outbox_update after update of content, type, session_id, expires_at, updated_at, archived_by on memories
      when (select enabled from qdrant_outbox_state) = 1 begin
      insert into qdrant_outbox (pk, op, enqueued_at)
        values (new.pk, case when old.content is new.content then 'upsert' else 'delete' end, ${enqueuedAt})
        on conflict (pk) do update set op = excluded.op, enqueued_at = excluded.enqueued_at;
    end`)
    .execute(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'memory_vec'`.execute(db);
  if ((rows[0]?.n ?? 0) > 0) {
    await sql`drop trigger if exists memory_vec_filters`.execute(db);
    await sql`create trigger memory_vec_filters after update of type, session_id, expires_at, updated_at, archived_by on memories
      when old.content is new.content begin
      update memory_vec set type = new.type, session_id = coalesce(new.session_id, ''),
        expires_at = coalesce(new.expires_at, ${sql.lit(Number.MAX_SAFE_INTEGER)}), updated_at = new.updated_at,
        archived = new.archived_by is not null
      where memory_pk = new.pk;
    end`.execute(db);
  }
  for (const column of ['superseded_by', 'valid_to', 'valid_from']) {
    await sql`alter table memories drop column ${sql.ref(column)}`.execute(db);
  }
}
