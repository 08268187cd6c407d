import { type Kysely, sql } from 'kysely';

// Frozen once shipped. The vec0 table itself is created at run time by the sqlite-vec index, because its
// dimension comes from the embedding model in use.
export async function up(db: Kysely<any>): Promise<void> {
  // One row: what the vector table currently holds, so a change of model is detected at start.
  await db.schema
    .createTable('memory_vec_meta')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('signature', 'text')
    .addColumn('source', 'text')
    .addColumn('model', 'text')
    .addColumn('dimension', 'integer')
    .addColumn('quantization', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('last_reset_at', 'integer')
    .execute();
  await sql`insert into memory_vec_meta (id) values (1)`.execute(db);

  // The lazy backfill asks "which memories of this key still need a vector?" on every semantic retrieval.
  await sql`create index memories_pending_by_key on memories (api_key_id, pk) where needs_reindex = 1`.execute(db);

  await db.schema
    .createTable('reindex_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'completed', 'failed', 'cancelled')`))
    .addColumn('force', 'integer', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    // Resume point: memories are processed in primary-key order.
    .addColumn('last_pk', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('started_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('finished_at', 'integer')
    .execute();
  // At most one running job, enforced by the database: single flight survives restarts and races.
  await sql`create unique index reindex_jobs_one_running on reindex_jobs (status) where status = 'running'`.execute(db);

  await db.schema
    .createTable('model_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('base_url', 'text', (c) => c.notNull())
    // A secret: written by admins, never returned by the API.
    .addColumn('api_key', 'text')
    .addColumn('models', 'text', (c) => c.notNull().defaultTo('[]').check(sql`json_valid(models) and json_type(models) = 'array'`))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists memory_vec`.execute(db);
  await db.schema.dropTable('model_providers').execute();
  await db.schema.dropTable('reindex_jobs').execute();
  await db.schema.dropTable('memory_vec_meta').execute();
}
