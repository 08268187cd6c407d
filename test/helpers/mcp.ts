import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { AnyTool } from '../../server/mcp/tool.ts';
/** The SDK's own client, connected over `transport`, with the tool list read (so it checks every result's structured content against the tool's output schema). */
export async function mcpClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'mnemo-tests', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** Streamable HTTP to a mnemo's /mcp with this bearer token. */
export function httpTransport(url: string, token: string) {
  return new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
}

/** Calls a tool and returns its structured content, typed by the tool's schemas; fails when the tool answered with an error. */
export async function call<T extends AnyTool>(client: Client, tool: T, args: z.input<T['input']>): Promise<z.input<T['output']>> {
  const result = (await client.callTool({ name: tool.name, arguments: args as Record<string, unknown> })) as CallToolResult;
  if (result.isError) throw new Error(`${tool.name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as z.input<T['output']>;
}

/** Calls a tool that must fail; returns the error it answered with (code and message), checked to agree with its text. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} succeeded: ${JSON.stringify(result.structuredContent)}`);
  const { error } = result.structuredContent as { error: { code: string; message: string } };
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (text !== `${error.code}: ${error.message}`) throw new Error(`text and structured content disagree: ${text}`);
  return error;
}

/** The text a tool answered with. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
