import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { type OpenedDatabase, openDatabase } from '../../server/db/open.ts';
import { autoSummarizeOnce } from '../../server/jobs/autoSummarize.ts';
import { createLogger } from '../../server/logger.ts';
import { importMemories } from '../../server/memory/memory.service.ts';
import { createServices, type Services } from '../../server/services.ts';

let dir: string;
let database: OpenedDatabase;
let services: Services;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-auto-'));
  database = openDatabase(path.join(dir, 'mnemo.db'));
  await migrateToLatest(database.db);
  services = createServices({ db: database.db, logger: createLogger('silent') });
  const day = 86_400_000;
  // 25 memories 20 days old: in the older half of a 30-day retention window.
  const rows = Array.from({ length: 25 }, (_, i) => ({
    apiKeyId: 'auto',
    content: `old fact number ${i}`,
    createdAt: new Date(Date.now() - 20 * day),
  }));
  await importMemories(services, rows, () => true);
});
afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

it('does nothing while autoSummarize is off', async () => {
  expect(await autoSummarizeOnce(services)).toBeNull();
});

it('compacts the older half of the retention window per key when autoSummarize is on', async () => {
  await services.settings.update({ autoSummarize: true });
  const pass = await autoSummarizeOnce(services);
  expect(pass?.results).toEqual([{ apiKeyId: 'auto', archived: 25, tokensSaved: expect.any(Number) }]);
  expect(pass!.results[0]!.tokensSaved).toBeGreaterThan(0);
  expect((await autoSummarizeOnce(services, pass!.next))?.results).toEqual([]);
});
