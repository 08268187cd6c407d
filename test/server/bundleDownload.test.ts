import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/audit.service.ts';
import { IMPORT_MEMORIES } from '../helpers/operations.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/testApp.ts';

// The export bundle as Memory Studio downloads it: the bytes `mnemo export` writes, to admins only.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.ok(IMPORT_MEMORIES, {
    memories: [
      { apiKeyId: 'dl-ann', key: 'tea', content: 'Drinks green tea' },
      { apiKeyId: 'dl-ben', key: 'bike', content: 'Cycles to work' },
    ],
  });
});
afterAll(() => app.close());

const download = (query: string, token: string | null = ADMIN_TOKEN, method = 'GET') =>
  fetch(`${app.url}/export/bundle.jsonl${query}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('the export bundle download', () => {
  it("sends one key's bundle as a file of the length it announces, and records the export", async () => {
    const res = await download('?apiKeyId=dl-ann');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="mnemo-export-key-\d{4}-\d\d-\d\d\.jsonl"$/);
    const body = await res.text();
    expect(Buffer.byteLength(body)).toBe(Number(res.headers.get('content-length')));
    const [header, ...lines] = body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(header).toMatchObject({ format: 'mnemo-export', apiKeyId: 'dl-ann', counts: { memories: 1, versions: 0, tombstones: 0 } });
    expect(lines.map((l) => [l.kind, l.content])).toEqual([['memory', 'Drinks green tea']]);
    const { items } = await auditLog(app.services, { action: 'MEMORIES_EXPORT' }, { limit: 5 });
    expect(items[0]).toMatchObject({ apiKeyId: 'dl-ann', target: { memories: 1, versions: 0, tombstones: 0 }, outcome: 'OK' });
  });

  it('sends every key without one', async () => {
    const header = JSON.parse((await (await download('')).text()).split('\n')[0]!);
    expect(header).toMatchObject({ apiKeyId: null, counts: { memories: 2 } });
  });

  it('refuses a gateway token, no token, an API key that is not one, and another method, saying why', async () => {
    const gateway = await app.mintToken({ apiKeyId: 'dl-ann' });
    const answers = await Promise.all([
      download('?apiKeyId=dl-ann', gateway),
      download('', null),
      download('?apiKeyId=%20'),
      download('', ADMIN_TOKEN, 'POST'),
    ]);
    expect(await Promise.all(answers.map(async (r) => [r.status, (await r.json()).error]))).toEqual([
      [403, 'only an admin token may download the export bundle'],
      [401, 'send Authorization: Bearer <token>'],
      [400, expect.any(String)],
      [405, 'the export bundle is downloaded with GET'],
    ]);
  });
});
