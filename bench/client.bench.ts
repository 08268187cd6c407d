/**
 * `client`: what @mnemo/client adds to a call over a raw fetch of the same operation. Both send the same typed
 * document with the same variables to the same real HTTP server, in turns (raw, client, raw, client, ...);
 * the figure is the p50 of the per-pair differences. The client's share is its deadline signal, the breaker,
 * building the input and reading the outcome; the network and the server cost the same on both sides.
 */
import { InjectMemoryDocument, RetrieveDocument } from '../client/src/generated/graphql.ts';
import { createMnemoClient } from '../client/src/index.ts';
import { BENCH_ADMIN_TOKEN, openBenchDb, startHttp } from './lib/benchDb.ts';
import type { BenchSection } from './lib/section.ts';
import { analyzeLikeAServer, apiKeyName, seedMemories } from './lib/seed.ts';
import { percentile, sampleInterleaved, summarize } from './lib/stats.ts';
import { fmtInt, fmtMs, printTable } from './lib/table.ts';

const SIZES = { quick: { memories: 1_000, iterations: 200, warmup: 50 }, full: { memories: 10_000, iterations: 2_000, warmup: 50 } };

interface Lane {
  operation: string;
  raw: () => Promise<unknown>;
  client: () => Promise<unknown>;
}

export async function benchClient(o: { memories: number; iterations: number; warmup: number }) {
  const db = await openBenchDb();
  const http = await startHttp(db.services);
  try {
    await db.services.settings.update({ enabled: true });
    await seedMemories(db.database, { count: o.memories, apiKeys: 1, seed: 401 });
    await analyzeLikeAServer(db.database);
    const apiKeyId = apiKeyName(0);
    // A generous deadline: the figure is the client's cost, not its fail-open path (counted below if taken).
    const client = createMnemoClient({ url: http.url, token: BENCH_ADMIN_TOKEN, apiKeyId, deadlineMs: 10_000 });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` };
    const rawFetch = async (query: string, variables: unknown) => {
      const res = await fetch(`${http.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
    };
    const request = {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'What did I say about the deployment schedule and the database?' },
      ],
    };
    const retrieval = { query: 'deployment schedule database', strategy: 'EXACT' as const };
    let failedOpen = 0;
    const lanes: Lane[] = [
      {
        operation: 'retrieve (EXACT)',
        raw: () => rawFetch(RetrieveDocument.toString(), { input: { ...retrieval, apiKeyId } }),
        client: () => client.retrieve(retrieval),
      },
      {
        operation: 'injectMemory (EXACT)',
        raw: () =>
          rawFetch(InjectMemoryDocument.toString(), {
            input: { provider: 'openai/gpt-4o-mini', request, retrieval: { ...retrieval, apiKeyId } },
          }),
        client: async () => {
          const outcome = await client.inject(request, { provider: 'openai/gpt-4o-mini', ...retrieval });
          if (!outcome.injected) failedOpen += 1;
        },
      },
    ];
    // The client's own work, without the network and the server: the same calls against a fetch that answers
    // at once with a recorded injectMemory response. On a busy machine the HTTP rows' noise hides it.
    const recorded = await (
      await fetch(`${http.url}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: InjectMemoryDocument.toString(),
          variables: { input: { provider: 'openai/gpt-4o-mini', request, retrieval: { ...retrieval, apiKeyId } } },
        }),
      })
    ).text();
    const answerAtOnce = async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(recorded, { headers: { 'content-type': 'application/json' } });
    const offline = createMnemoClient({ url: http.url, token: BENCH_ADMIN_TOKEN, apiKeyId, deadlineMs: 10_000, fetch: answerAtOnce });
    lanes.push({
      operation: 'injectMemory, fetch answering at once',
      raw: async () => {
        const body = JSON.stringify({
          query: InjectMemoryDocument.toString(),
          variables: { input: { provider: 'openai/gpt-4o-mini', request, retrieval: { ...retrieval, apiKeyId } } },
        });
        await (await answerAtOnce(`${http.url}/graphql`, { method: 'POST', headers, body })).json();
      },
      client: async () => {
        const outcome = await offline.inject(request, { provider: 'openai/gpt-4o-mini', ...retrieval });
        if (!outcome.injected) failedOpen += 1;
      },
    });
    const rows: string[][] = [];
    for (const lane of lanes) {
      const [raw, viaClient] = await sampleInterleaved([lane.raw, lane.client], { iterations: o.iterations, warmup: o.warmup });
      const added = raw!.map((ms, i) => viaClient![i]! - ms).sort((a, b) => a - b);
      const r = summarize(raw!);
      const c = summarize(viaClient!);
      rows.push([lane.operation, fmtInt(r.n), fmtMs(r.p50), fmtMs(c.p50), fmtMs(percentile(added, 50)), fmtMs(r.p95), fmtMs(c.p95)]);
    }
    return { rows, failedOpen };
  } finally {
    await http.close();
    await db.close();
  }
}

export const sections: BenchSection[] = [
  {
    name: 'client',
    group: 'client',
    description: "@mnemo/client's added p50 over a raw fetch of the same operation",
    run: async ({ quick }) => {
      const o = SIZES[quick ? 'quick' : 'full'];
      const { rows, failedOpen } = await benchClient(o);
      printTable({
        title: `@mnemo/client vs raw fetch, ms (same document and variables, one key of ${fmtInt(o.memories)} memories, server in this process)`,
        columns: [
          { header: 'operation' },
          { header: 'calls' },
          { header: 'raw p50' },
          { header: 'client p50' },
          { header: 'added p50' },
          { header: 'raw p95' },
          { header: 'client p95' },
        ],
        rows,
        notes: [
          '"added p50" = median of (client − raw) over interleaved pairs; both use Node\'s fetch and its kept-alive pool,',
          "except the last row: a fetch double answering at once with a recorded response (the client's own work only).",
          `inject calls that failed open during the run: ${failedOpen}`,
        ],
      });
    },
  },
];
