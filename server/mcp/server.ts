import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { loggedFailure, storageFault } from '../db/storeErrors.ts';
import { DomainError } from '../errors.ts';
import { PACKAGE_VERSION } from '../packageRoot.ts';
import { illFormedArguments, parseInput } from '../validation.ts';
import { memoryExtract } from './gateway.tools.ts';
import { memoryAdd, memoryClear, memoryDelete, memoryGet, memoryHistory, memoryList, memoryUpdate } from './memory.tools.ts';
import { memorySearch } from './retrieval.tools.ts';
import { type AnyTool, listedTool, type ToolContext, toolError } from './tool.ts';

/** Every tool, in the order tools/list shows them. */
export const TOOLS: readonly AnyTool[] = [
  memorySearch,
  memoryAdd,
  memoryClear,
  memoryList,
  memoryGet,
  memoryHistory,
  memoryUpdate,
  memoryDelete,
  memoryExtract,
];

// The SDK builds an Ajv instance per server unless given one: 0.5 ms of CPU (measured at load 12), per request here.
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
// The listing is the same for every caller: its JSON Schemas are made once, not per request.
const LISTED = TOOLS.map(listedTool);

const INSTRUCTIONS = `mnemo is the user's long-term memory. Before answering, call memory_search with the user's request to recall what is known about them. When the user states a durable preference, decision, habit or fact about themselves, store it with memory_add under a short descriptive key (the same key replaces the old fact), or pass their message to memory_extract. Curate with memory_list, memory_update and memory_delete (memory_history shows what a memory said before); memory_clear removes many at once.`;

/**
 * An MCP server for one caller: the tools, with the caller's key rules applied inside each one. A tool's failure
 * is its result (isError, with the domain's error code), never a protocol error, so a model can read it and retry.
 */
export function createMcpServer(ctx: ToolContext): Server {
  const server = new Server(
    { name: 'mnemo', title: 'mnemo memory', version: PACKAGE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => callTool(params.name, params.arguments, ctx));
  return server;
}

async function callTool(name: string, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  const tool = BY_NAME.get(name);
  // Calling a tool that does not exist is the client's protocol error, as the MCP specification has it.
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  // As GraphQL's variables: a lone surrogate would be stored as U+FFFD, so two names would become one.
  const illFormed = illFormedArguments(args ?? {});
  if (illFormed) return toolError('BAD_USER_INPUT', illFormed);
  try {
    const answer = await tool.run(parseInput(tool.input, args ?? {}), ctx);
    const structuredContent = answer.structured as Record<string, unknown>;
    return { content: [{ type: 'text', text: answer.text ?? JSON.stringify(structuredContent) }], structuredContent };
  } catch (error) {
    if (error instanceof DomainError) return toolError(error.code, error.message);
    // A full or failing disk is the environment's fault, told as GraphQL tells it, and logged for the operator without a stack.
    const fault = storageFault(error);
    if (fault) {
      ctx.log.error({ tool: name, ...loggedFailure(error) }, 'tool answered with a storage fault');
      return toolError(fault.code, fault.message);
    }
    // Anything else is a bug: logged, and masked as GraphQL masks it, so no SQL or stack reaches the client.
    ctx.log.error({ err: error, tool: name }, 'unexpected error');
    return toolError('INTERNAL_SERVER_ERROR', 'Unexpected error.');
  }
}
