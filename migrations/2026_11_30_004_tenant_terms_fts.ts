import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The keyword index gets per-tenant terms (see server/db/tenantTerms.ts): a search of one
// key reads only that key's postings instead of intersecting every tenant's with a tenant token, and ranks
// with that key's own statistics (server/search/bm25.ts), for which memory_counts keeps each key's row count.
// The index is contentless (it never needs the text back) with contentless_delete, so triggers delete by rowid.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger memories_fts_insert`.execute(db);
  await sql`drop trigger memories_fts_delete`.execute(db);
  await sql`drop trigger memories_fts_update`.execute(db);
  await sql`drop table memories_fts`.execute(db);
  await db.schema.alterTable('memories').dropColumn('fts_tenant').execute();

  // content/key: every tenant's words, for admin search across keys. tenant_content/tenant_key: the same
  // words prefixed per key, for everything that knows its key (retrieval, search within one key).
  await sql`create virtual table memories_fts using fts5(
    content, key, tenant_content, tenant_key, content='', contentless_delete=1, tokenize='porter unicode61'
  )`.execute(db);
  const insertNew = `insert into memories_fts(rowid, content, key, tenant_content, tenant_key) values (new.pk, new.content, new.key,
    mnemo_tenant_terms(new.api_key_id, new.content), mnemo_tenant_terms(new.api_key_id, new.key));`;
  await sql.raw(`create trigger memories_fts_insert after insert on memories begin ${insertNew} end`).execute(db);
  await sql`create trigger memories_fts_delete after delete on memories begin
    delete from memories_fts where rowid = old.pk;
  end`.execute(db);
  // Fires only when indexed text really changes: counters, flags and metadata never touch the index.
  await sql
    .raw(
      `create trigger memories_fts_update after update of content, key, api_key_id on memories
        when old.content is not new.content or old.key is not new.key or old.api_key_id is not new.api_key_id begin
        delete from memories_fts where rowid = old.pk;
        ${insertNew}
      end`,
    )
    .execute(db);
  await sql`insert into memories_fts(rowid, content, key, tenant_content, tenant_key)
    select pk, content, key, mnemo_tenant_terms(api_key_id, content), mnemo_tenant_terms(api_key_id, key) from memories`.execute(db);
  await sql`insert into memories_fts(memories_fts) values ('optimize')`.execute(db);

  // Every row of a key, archived and expired ones too: the N over which its terms are counted.
  await db.schema
    .createTable('memory_counts')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey())
    .addColumn('memories', 'integer', (c) => c.notNull())
    .execute();
  const countIn = (key: string) =>
    `insert into memory_counts (api_key_id, memories) values (${key}, 1) on conflict (api_key_id) do update set memories = memories + 1;`;
  const countOut = (key: string) => `update memory_counts set memories = memories - 1 where api_key_id = ${key};`;
  await sql.raw(`create trigger memory_counts_insert after insert on memories begin ${countIn('new.api_key_id')} end`).execute(db);
  await sql.raw(`create trigger memory_counts_delete after delete on memories begin ${countOut('old.api_key_id')} end`).execute(db);
  await sql
    .raw(
      `create trigger memory_counts_move after update of api_key_id on memories when old.api_key_id is not new.api_key_id begin
        ${countOut('old.api_key_id')} ${countIn('new.api_key_id')}
      end`,
    )
    .execute(db);
  await sql`insert into memory_counts (api_key_id, memories) select api_key_id, count(*) from memories group by api_key_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('memory_counts').execute();
  await sql`drop trigger memories_fts_insert`.execute(db);
  await sql`drop trigger memories_fts_delete`.execute(db);
  await sql`drop trigger memories_fts_update`.execute(db);
  await sql`drop table memories_fts`.execute(db);
  await db.schema
    .alterTable('memories')
    .addColumn('fts_tenant', 'text', (c) => c.generatedAlwaysAs(sql`'k' || hex(api_key_id) || 'z'`))
    .execute();
  await sql`create virtual table memories_fts using fts5(
    content, key, fts_tenant, content='memories', content_rowid='pk', tokenize='porter unicode61'
  )`.execute(db);
  await sql`create trigger memories_fts_insert after insert on memories begin
    insert into memories_fts(rowid, content, key, fts_tenant) values (new.pk, new.content, new.key, new.fts_tenant);
  end`.execute(db);
  await sql`create trigger memories_fts_delete after delete on memories begin
    insert into memories_fts(memories_fts, rowid, content, key, fts_tenant)
      values ('delete', old.pk, old.content, old.key, old.fts_tenant);
  end`.execute(db);
  await sql`create trigger memories_fts_update after update of content, key, api_key_id on memories
    when old.content is not new.content or old.key is not new.key or old.api_key_id is not new.api_key_id begin
    insert into memories_fts(memories_fts, rowid, content, key, fts_tenant)
      values ('delete', old.pk, old.content, old.key, old.fts_tenant);
    insert into memories_fts(rowid, content, key, fts_tenant) values (new.pk, new.content, new.key, new.fts_tenant);
  end`.execute(db);
  await sql`insert into memories_fts(memories_fts) values ('rebuild')`.execute(db);
}
