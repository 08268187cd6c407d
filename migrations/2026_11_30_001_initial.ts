import { type Kysely, sql } from 'kysely';

// Frozen once shipped: later changes go in new migrations.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('memories')
    // The engine's key: FTS5 and the vector tables join on it. The public id is the UUID.
    .addColumn('pk', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('factual', 'episodic', 'procedural', 'semantic', 'enforced')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}').check(sql`json_valid(metadata) and json_type(metadata) = 'object'`))
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer')
    .addColumn('needs_reindex', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('access_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_accessed_at', 'integer')
    // Set when a summary replaced this memory; restoring the summary clears it. Nothing is deleted.
    .addColumn('archived_by', 'text')
    // The tenant as ONE opaque FTS token ("k<hex of the API key>z"): matching it is a single doclist
    // intersection, where the key's own words ("acme", "key") would recur in every tenant's rows. The
    // trailing "z" keeps the porter stemmer from trimming it.
    .addColumn('fts_tenant', 'text', (c) => c.generatedAlwaysAs(sql`'k' || hex(api_key_id) || 'z'`))
    .addUniqueConstraint('memories_api_key_key_unique', ['api_key_id', 'key'])
    .execute();

  // One index per filter the API offers; each leads with the tenant because every query names one.
  await db.schema.createIndex('memories_by_key_created').on('memories').columns(['api_key_id', 'created_at']).execute();
  await db.schema.createIndex('memories_by_key_type_created').on('memories').columns(['api_key_id', 'type', 'created_at']).execute();
  await db.schema
    .createIndex('memories_by_key_session_created')
    .on('memories')
    .columns(['api_key_id', 'session_id', 'created_at'])
    .execute();
  await db.schema.createIndex('memories_by_key_updated').on('memories').columns(['api_key_id', 'updated_at']).execute();
  await db.schema.createIndex('memories_by_created').on('memories').column('created_at').execute();
  await db.schema
    .createIndex('memories_by_summary')
    .on('memories')
    .column('archived_by')
    .where(sql.ref('archived_by'), 'is not', null)
    .execute();
  await db.schema.createIndex('memories_by_updated').on('memories').column('updated_at').execute();
  await db.schema
    .createIndex('memories_by_expiry')
    .on('memories')
    .column('expires_at')
    .where(sql.ref('expires_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('memories_pending_reindex').on('memories').column('pk').where(sql.ref('needs_reindex'), '=', 1).execute();

  // The tenant token is indexed too, so a keyword search is confined to one tenant inside FTS5 itself
  // (weight 0 in bm25: it only filters).
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
  // Fires only when indexed text really changes: counters, flags and metadata never touch the index.
  await sql`create trigger memories_fts_update after update of content, key, api_key_id on memories
    when old.content is not new.content or old.key is not new.key or old.api_key_id is not new.api_key_id begin
    insert into memories_fts(memories_fts, rowid, content, key, fts_tenant)
      values ('delete', old.pk, old.content, old.key, old.fts_tenant);
    insert into memories_fts(rowid, content, key, fts_tenant) values (new.pk, new.content, new.key, new.fts_tenant);
  end`.execute(db);

  await db.schema
    .createTable('retrieval_stats')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey())
    .addColumn('retrievals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull().check(sql`json_valid(value)`))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'gateway')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('api_key_id', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_used_at', 'integer')
    .addColumn('revoked_at', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('access_tokens').execute();
  await db.schema.dropTable('settings').execute();
  await db.schema.dropTable('retrieval_stats').execute();
  await sql`drop table memories_fts`.execute(db);
  await db.schema.dropTable('memories').execute();
}
