import type { Kysely } from 'kysely';

// Frozen once shipped. A scratch table for memoryHealth's commit probe: a row is written and committed, then deleted
// and committed, so the check proves that a write can reach the disk (a rolled-back probe passes on a full disk).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('health_probe')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('written_at', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('health_probe').execute();
}
