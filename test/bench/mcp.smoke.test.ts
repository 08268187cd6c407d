/**
 * Keeps the MCP section of `npm run bench` from rotting: memory_search over /mcp against retrieve over /graphql at toy
 * sizes, each from its client process. Asserts nothing about how fast anything is.
 */
import { expect, it } from 'vitest';
import { renderTable } from '../../bench/lib/table.ts';
import { benchMcp, mcpTable } from '../../bench/mcp.bench.ts';

it('memory_search over MCP and retrieve over GraphQL: latencies, paired differences and server CPU per call', async () => {
  const o = { memories: 300, iterations: 8, warmup: 4, rounds: 2 };
  const report = await benchMcp(o);
  for (const lane of [report.graphql, report.mcp, report.added]) expect(lane.n).toBe(o.iterations);
  for (const lane of [report.graphql, report.mcp]) expect(lane.p50).toBeGreaterThan(0);
  expect(report.serverCpu.graphql).toBeGreaterThan(0);
  expect(report.serverCpu.mcp).toBeGreaterThan(0);
  expect(renderTable(mcpTable(report, o))).toContain('target: MCP adds at most 1 ms at p50 over GraphQL');
});
