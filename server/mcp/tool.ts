import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Viewer } from '../auth/viewer.ts';
import type { DomainErrorCode } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';

/** One tool call: who is calling (from the bearer token), the services every tool delegates to, the request's id and log. */
export interface ToolContext {
  viewer: Viewer;
  services: Services;
  requestId: string;
  log: Logger;
}

/** What a tool answers: the structured content, and the text a model reads (its JSON unless given). */
export interface ToolAnswer<Out> {
  structured: Out;
  text?: string;
}

/**
 * An MCP tool as mnemo defines it: its input and output as zod schemas (listed as JSON Schema), and `run`, which
 * applies the caller's key rules and calls a domain function, as a GraphQL resolver does.
 */
export interface McpTool<In extends z.ZodType, Out extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: In;
  output: Out;
  annotations: Omit<ToolAnnotations, 'title'>;
  run(args: z.output<In>, ctx: ToolContext): Promise<ToolAnswer<z.input<Out>>>;
}

export type AnyTool = McpTool<z.ZodType, z.ZodType>;

/** The hints of a tool that changes nothing. No tool reaches beyond mnemo's own store: none is open-world. */
export const READS = { readOnlyHint: true, openWorldHint: false } as const;
/**
 * The hints of a tool that writes: destructive, as each may replace or remove what is stored (an upsert overwrites its
 * key); idempotent, as the same call again changes nothing more.
 */
export const WRITES = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

export const defineTool = <In extends z.ZodType, Out extends z.ZodType>(tool: McpTool<In, Out>): McpTool<In, Out> => tool;

/** The codes a tool error carries: the domain's, and INTERNAL_SERVER_ERROR for a masked bug. */
export type ToolErrorCode = DomainErrorCode | 'INTERNAL_SERVER_ERROR';

const toolErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z
      .string()
      .describe(
        'BAD_USER_INPUT, FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, UNAVAILABLE, STORAGE_FULL, STORAGE_ERROR or INTERNAL_SERVER_ERROR.',
      ),
    message: z.string(),
  }),
});

/** A failed call as a tool result (isError), so the model reads what went wrong and can correct its arguments. */
export function toolError(code: ToolErrorCode, message: string): CallToolResult {
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message } } satisfies z.input<typeof toolErrorSchema>,
    isError: true,
  };
}

/**
 * The tool as tools/list shows it. JSON Schema draft-07, as the SDK's own McpServer lists zod schemas (and as its
 * client validates them). The output schema admits the error shape too: clients validate the structured content of
 * every result against it, failed calls included.
 */
export function listedTool(tool: AnyTool): Tool {
  // Without $schema: the listing reads the same in draft-07 and in 2020-12, MCP's default dialect.
  const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io });
    return rest as Record<string, unknown>;
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: { ...jsonSchema(z.union([tool.output, toolErrorSchema]), 'output'), type: 'object' } as Tool['inputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}
