import { type Kysely, sql } from 'kysely';

// Frozen once shipped. A deleted memory must leave no text in the database file. The keyword index of migration 004
// was contentless_delete: a delete only marked the row as gone, and its terms stayed in the index's segments until a
// merge rewrote them (an 'optimize' of the whole index, far too costly after every delete). A plain contentless index
// takes the 'delete' command with the row's old values instead, and with FTS5's secure-delete option it removes the
// terms from the segments in the same transaction. The triggers have the old values at hand (the tenant terms come
// from the same deterministic function as on insert), so nothing else changes.
//
// The planner's sample rows (sqlite_stat4, written by ANALYZE on this build) are copies of index entries: keys,
// API key ids and keyword-index terms, which a delete never touches. openDatabase sets analysis_limit, under which
// ANALYZE keeps only counts (sqlite_stat1); the samples already written go here.
const insertNew = `insert into memories_fts(rowid, content, key, tenant_content, tenant_key) values (new.pk, new.content, new.key,
  mnemo_tenant_terms(new.api_key_id, new.content), mnemo_tenant_terms(new.api_key_id, new.key));`;
const deleteOld = `insert into memories_fts(memories_fts, rowid, content, key, tenant_content, tenant_key) values ('delete', old.pk,
  old.content, old.key, mnemo_tenant_terms(old.api_key_id, old.content), mnemo_tenant_terms(old.api_key_id, old.key));`;

async function rebuildIndex(db: Kysely<any>, options: string, remove: string) {
  await sql`drop trigger memories_fts_insert`.execute(db);
  await sql`drop trigger memories_fts_delete`.execute(db);
  await sql`drop trigger memories_fts_update`.execute(db);
  await sql`drop table memories_fts`.execute(db);
  await sql
    .raw(`create virtual table memories_fts using fts5(
      content, key, tenant_content, tenant_key, content='', ${options} tokenize='porter unicode61'
    )`)
    .execute(db);
  await sql.raw(`create trigger memories_fts_insert after insert on memories begin ${insertNew} end`).execute(db);
  await sql.raw(`create trigger memories_fts_delete after delete on memories begin ${remove} end`).execute(db);
  // Fires only when indexed text really changes: counters, flags and metadata never touch the index.
  await sql
    .raw(
      `create trigger memories_fts_update after update of content, key, api_key_id on memories
        when old.content is not new.content or old.key is not new.key or old.api_key_id is not new.api_key_id begin
        ${remove}
        ${insertNew}
      end`,
    )
    .execute(db);
}

async function fill(db: Kysely<any>) {
  await sql`insert into memories_fts(rowid, content, key, tenant_content, tenant_key)
    select pk, content, key, mnemo_tenant_terms(api_key_id, content), mnemo_tenant_terms(api_key_id, key) from memories`.execute(db);
  await sql`insert into memories_fts(memories_fts) values ('optimize')`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuildIndex(db, '', deleteOld);
  await sql`insert into memories_fts(memories_fts, rank) values ('secure-delete', 1)`.execute(db);
  await fill(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat4'`.execute(db);
  if (rows[0]!.n > 0) await sql`delete from sqlite_stat4`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuildIndex(db, 'contentless_delete=1,', 'delete from memories_fts where rowid = old.pk;');
  await fill(db);
}
