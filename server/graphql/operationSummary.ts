import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { OperationType } from '../metrics/metrics.ts';
import type { MnemoServerContext } from './requestLog.ts';

/** Stands for a root field that is not in the schema, so that a label never takes a caller's free text. */
export const UNKNOWN_FIELD = 'unknown';
/** The field of a request that never got as far as a parsed operation (no query, a syntax error). */
export const NO_FIELD = 'none';

/** What a GraphQL request asked for and how it ended, per root field. */
export interface OperationSummary {
  type: OperationType | null;
  /** As the caller named it: for the log, never for a metric label. */
  operationName: string | null;
  /** Root fields by schema name (UNKNOWN_FIELD for one the schema lacks), each with OK or its first error's code. */
  fields: { name: string; outcome: string }[];
  durationMs: number;
  /** A subscription's stream: its duration is the time to set it up. */
  stream: boolean;
}

interface Pending {
  start: number;
  type: OperationType | null;
  operationName: string | null;
  /** Response key (alias or name) → schema field name. */
  fields: Map<string, string>;
}

/**
 * Reads each GraphQL request's operation and result into an OperationSummary for `report` (metrics, the
 * access line). The result it reads is the one the caller gets, after error masking, so outcome codes agree
 * with what the caller saw.
 */
export function useOperationSummary(
  schema: GraphQLSchema,
  report: (summary: OperationSummary, serverContext: MnemoServerContext) => void,
): Plugin<Record<string, unknown>, MnemoServerContext> {
  const pending = new WeakMap<Request, Pending>();
  const rootFields: Record<OperationType, Set<string>> = {
    query: new Set(Object.keys(schema.getQueryType()?.getFields() ?? {})),
    mutation: new Set(Object.keys(schema.getMutationType()?.getFields() ?? {})),
    subscription: new Set(Object.keys(schema.getSubscriptionType()?.getFields() ?? {})),
  };
  for (const introspection of ['__typename', '__schema', '__type']) rootFields.query.add(introspection);
  return {
    onRequest({ request }) {
      pending.set(request, { start: performance.now(), type: null, operationName: null, fields: new Map() });
    },
    onParse({ context }) {
      const { request, params } = context as { request?: Request; params?: { operationName?: string | null } };
      return ({ result }) => {
        const state = request && pending.get(request);
        if (!state || !isDocument(result)) return;
        const operation = selectedOperation(result, params?.operationName ?? null);
        if (!operation) return;
        state.type = operation.operation as OperationType;
        state.operationName = operation.name?.value ?? null;
        const known = rootFields[state.type];
        const fragments = new Map(
          result.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
        );
        collectFields(operation.selectionSet, fragments, new Set(), (key, name) => {
          state.fields.set(key, known.has(name) ? name : UNKNOWN_FIELD);
        });
      };
    },
    onResultProcess({ request, result, serverContext }) {
      const state = pending.get(request);
      if (!state) return;
      pending.delete(request);
      const stream = !Array.isArray(result) && isAsyncIterable(result);
      const errors = stream ? [] : ((Array.isArray(result) ? result[0] : (result as ExecutionResult))?.errors ?? []);
      const fields: OperationSummary['fields'] = [];
      if (state.fields.size === 0) fields.push({ name: NO_FIELD, outcome: firstCode(errors) ?? 'OK' });
      const withoutPath = firstCode(errors.filter((e) => !e.path?.length));
      for (const [key, name] of state.fields) {
        const own = firstCode(errors.filter((e) => e.path?.[0] === key));
        fields.push({ name, outcome: own ?? withoutPath ?? 'OK' });
      }
      report(
        {
          type: state.type,
          operationName: state.operationName,
          fields,
          durationMs: performance.now() - state.start,
          stream,
        },
        serverContext,
      );
    },
  };
}

function isDocument(value: unknown): value is DocumentNode {
  return typeof value === 'object' && value !== null && (value as DocumentNode).kind === Kind.DOCUMENT;
}

function isAsyncIterable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function selectedOperation(document: DocumentNode, name: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name) return operations.find((o) => o.name?.value === name) ?? null;
  return operations.length === 1 ? operations[0]! : null;
}

/** The root fields of a selection, through inline fragments and fragment spreads (each fragment once). */
function collectFields(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
  add: (responseKey: string, fieldName: string) => void,
) {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) add(selection.alias?.value ?? selection.name.value, selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collectFields(selection.selectionSet, fragments, seen, add);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) collectFields(fragment.selectionSet, fragments, seen, add);
    }
  }
}

/** A code fit for a label: the server's own codes are upper-case words; anything else counts as an internal error. */
function firstCode(errors: readonly GraphQLError[]): string | null {
  if (errors.length === 0) return null;
  const code = errors[0]!.extensions?.code;
  return typeof code === 'string' && /^[A-Z][A-Z_]{0,39}$/.test(code) ? code : 'INTERNAL_SERVER_ERROR';
}
