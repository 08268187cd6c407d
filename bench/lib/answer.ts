/**
 * What every timed retrieve call reports back, whichever way it went (in-process, yoga.fetch, HTTP from the
 * client process), and the check that it came from the tier the benchmark claims to measure. Shared with the
 * HTTP client (httpClient.ts), which runs in its own process: keep it free of runtime imports from the server.
 */
import type { Strategy } from '../../server/retrieval/retrieval.ts';

export interface Answer {
  items: number;
  /** Lower case, as the domain names them ('keyword'); GraphQL's enum values are mapped before the check. */
  tiers: string[];
  fallbackReason: string | null;
}

/** What the benchmarks ask `retrieve` over GraphQL. */
export const RETRIEVE_QUERY = `query Retrieve($input: RetrieveInput!) {
  retrieve(input: $input) { tokensUsed candidates items { tier score content memory { id key type } } resolution { tiers fallbackReason } }
}`;

/** `retrieve` in a GraphQL response: the fields the check needs, from RETRIEVE_QUERY. */
export interface RetrieveData {
  retrieve: { items: unknown[]; resolution: { tiers: string[]; fallbackReason: string | null } };
}

/**
 * The Answer in a GraphQL response body; throws on a transport or GraphQL error, so a lane that silently
 * returns errors fails the bench instead of timing them.
 */
export function answerOfResponse(label: string, status: number, text: string): Answer {
  let body: { data?: RetrieveData | null; errors?: { message: string }[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${label}: HTTP ${status}, not JSON: ${text.slice(0, 300)}`);
  }
  const r = body.data?.retrieve;
  if (status !== 200 || body.errors?.length || !r)
    throw new Error(`${label}: HTTP ${status}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
  return { items: r.items.length, tiers: r.resolution.tiers.map((t) => t.toLowerCase()), fallbackReason: r.resolution.fallbackReason };
}

/** memory_search's structured content: the fields the check needs. */
interface SearchContent {
  memories: { tier: string }[];
  fallbackReason: string | null;
}

/**
 * The Answer in an MCP tools/call response of memory_search (a JSON-RPC message); throws on a transport, protocol
 * or tool error. memory_search lists each memory's tier rather than the tiers that ran: those of its memories stand in.
 */
export function answerOfMcpResponse(label: string, status: number, text: string): Answer {
  let body: { result?: { isError?: boolean; structuredContent?: SearchContent }; error?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${label}: HTTP ${status}, not JSON: ${text.slice(0, 300)}`);
  }
  const content = body.result?.structuredContent;
  if (status !== 200 || body.error || body.result?.isError || !content)
    throw new Error(`${label}: HTTP ${status}: ${JSON.stringify(body.error ?? body.result ?? body).slice(0, 500)}`);
  return {
    items: content.memories.length,
    tiers: [...new Set(content.memories.map((m) => m.tier))],
    fallbackReason: content.fallbackReason,
  };
}

/**
 * Checks one call's answer: a benchmark of a tier that silently did not answer, or found nothing, would
 * measure the wrong thing.
 */
export function expectTier(label: string, strategy: Strategy, a: Answer): void {
  const tier = strategy === 'EXACT' ? 'exact' : 'keyword';
  if (!a.tiers.includes(tier)) throw new Error(`${label}: expected the ${tier} tier to answer, got ${JSON.stringify(a)}`);
  if (strategy === 'HYBRID' && !a.fallbackReason?.includes('vector search unavailable')) {
    throw new Error(`${label}: expected HYBRID to fall back to keyword search (no embedding model), got ${JSON.stringify(a)}`);
  }
}
