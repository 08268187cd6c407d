import { type QdrantDouble, startQdrantDouble } from '../doubles/qdrant.ts';
import { UPDATE_QDRANT } from './operations.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './testApp.ts';
import { testStoreKind } from './testStore.ts';

/** Whether this run's store is PostgreSQL, where vectors live in Qdrant only. */
export const onPostgres = testStoreKind() === 'postgres';

/** The vector store retrieval and the engine status name: sqlite-vec in the SQLite file, Qdrant on PostgreSQL. */
export const VECTOR_BACKEND = onPostgres ? 'qdrant' : 'sqlite-vec';

export interface VectorApp extends TestApp {
  /** The Qdrant double that holds the vectors on PostgreSQL; null on SQLite, whose vectors are in its file. */
  qdrant: QdrantDouble | null;
}

/**
 * A test app whose memories can be embedded. On SQLite sqlite-vec is in the database file; on PostgreSQL vectors need
 * Qdrant, so a Qdrant double is started, set in the Qdrant settings and enabled, as an admin would, and closed with the
 * app.
 */
export async function startVectorApp(options: TestAppOptions & { qdrant?: QdrantDouble } = {}): Promise<VectorApp> {
  if (!onPostgres) return { ...(await startTestApp(options)), qdrant: null };
  // A double passed in (a store reopened by a second app) is the caller's to close.
  const qdrant = options.qdrant ?? (await startQdrantDouble());
  const app = await startTestApp(options);
  await app.ok(UPDATE_QDRANT, { input: { url: qdrant.url, enabled: true } });
  const close = async () => {
    await app.close();
    if (!options.qdrant) await qdrant.close();
  };
  return { ...app, qdrant, close };
}

/**
 * How many vectors the store holds for a memory by its primary key (0 or 1), or in all: read from sqlite-vec's table, or
 * on PostgreSQL from the Qdrant double once the outbox has reached it (what the background worker does next).
 */
export async function storedVectors(app: VectorApp, pk?: number): Promise<number> {
  if (!app.qdrant) {
    const query = `select count(*) as n from memory_vec ${pk === undefined ? '' : 'where memory_pk = ?'}`;
    return (app.database.sqlite.prepare(query).get(...(pk === undefined ? [] : [BigInt(pk)])) as { n: number }).n;
  }
  await app.services.vectors.syncRemote(10_000);
  const points = [...(app.qdrant.collections.get('mnemo_memory')?.points.values() ?? [])];
  return points.filter((p) => pk === undefined || Number(p.id) === pk).length;
}

/** A memory's primary key, the key its vector is stored under. */
export async function pkOf(app: TestApp, memoryId: string): Promise<number> {
  return (await app.database.db.selectFrom('memories').select('pk').where('id', '=', memoryId).executeTakeFirstOrThrow()).pk;
}
