import type { Kysely } from 'kysely';

// Frozen once shipped. The process that runs a reindex job (its instance id, new at every start), so that a process
// that starts can tell a job of its own from one a dead process left running, and resume the latter at once instead
// of waiting for its heartbeat to go stale. Jobs from before have no owner: they count as another process's.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reindex_jobs').addColumn('owner', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reindex_jobs').dropColumn('owner').execute();
}
