import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QdrantDouble, startQdrantDouble } from '../doubles/qdrant.ts';
import { UPDATE_QDRANT } from '../helpers/operations.ts';
import { ensureDatabase, type PostgresCluster, postgresAvailable, startPostgresCluster } from '../helpers/postgres.ts';
import { type E2E, startE2E } from './harness.ts';

// The Engine tab of a `mnemo serve` on PostgreSQL: its cards say what runs there, not what runs on SQLite.

let cluster: PostgresCluster;
let qdrant: QdrantDouble;
let e2e: E2E;

beforeAll(async () => {
  if (!postgresAvailable()) return;
  [cluster, qdrant] = await Promise.all([startPostgresCluster(), startQdrantDouble()]);
  e2e = await startE2E({ env: { MNEMO_DATABASE_URL: await ensureDatabase(cluster.url, 'mnemo_e2e_engine') } });
  await e2e.page.getByRole('tab', { name: 'Engine' }).click();
}, 120_000);

afterAll(async () => {
  await e2e?.close();
  await qdrant?.close();
  cluster?.stop();
});

const card = (name: string) => e2e.page.getByRole('article', { name: `${name} status` });

describe.skipIf(!postgresAvailable())('the Engine tab on PostgreSQL', () => {
  it('names the keyword index PostgreSQL keeps: postings ranked by BM25, not FTS5', async () => {
    await card('Keyword').getByText('Ready').waitFor();
    const keyword = await card('Keyword').textContent();
    expect(keyword).toContain("PostgreSQL postings (each memory's words in a B-tree), ranked by BM25.");
    expect(keyword).not.toContain('FTS5');
  });

  it('says there are no vectors until Qdrant is configured, with the reason the server gives', async () => {
    const vectors = card('Vector store');
    await vectors.getByText('Unavailable').waitFor();
    const text = await vectors.textContent();
    expect(text).toContain('None until Qdrant is configured as the vector store: the PostgreSQL store keeps no vectors itself');
    expect(text).not.toContain('database file');
    await vectors
      .getByRole('note')
      .getByText(/^PostgreSQL store: vectors need Qdrant \(none is configured/)
      .waitFor();
  });

  it('says keywords, not sqlite-vec, answer while Qdrant is not configured', async () => {
    const qdrantCard = await card('Qdrant').textContent();
    expect(qdrantCard).toContain('Until then there are no vectors: semantic search answers from keywords.');
    expect(await e2e.page.getByRole('main').textContent()).not.toContain('sqlite-vec');
  });

  it("says the vectors are in Qdrant's collection once Qdrant is the vector store", async () => {
    await e2e.gql(UPDATE_QDRANT, { input: { url: qdrant.url, enabled: true } });
    const vectors = card('Vector store');
    await vectors.getByText("Qdrant's collection: the PostgreSQL store keeps no vectors itself.").waitFor();
    expect(await vectors.getByRole('note').count()).toBe(0);
  });
});
