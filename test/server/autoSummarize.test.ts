import { afterEach, beforeEach, expect, it } from 'vitest';
import { autoSummarizeOnce } from '../../server/jobs/autoSummarize.ts';
import { importMemories } from '../../server/memory/import.service.ts';
import type { Services } from '../../server/services.ts';
import { openTestDb, type TestDb } from '../helpers/testDb.ts';

let t: TestDb;
let services: Services;
beforeEach(async () => {
  t = await openTestDb();
  services = t.services;
  const day = 86_400_000;
  // 25 memories 20 days old: in the older half of a 30-day retention window.
  const rows = Array.from({ length: 25 }, (_, i) => ({
    apiKeyId: 'auto',
    content: `old fact number ${i}`,
    createdAt: new Date(Date.now() - 20 * day),
  }));
  await importMemories(services, rows, () => true);
});
afterEach(() => t.close());

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
