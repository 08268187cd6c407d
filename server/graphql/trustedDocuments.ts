import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/**
 * Trusted documents (MNEMO_TRUSTED_DOCUMENTS): the server runs only operations whose SHA-256 is in a manifest
 * made at build time from the operations that Memory Studio and @mnemo/client send (`npm run
 * trusted-documents`). A request names its operation by hash (`documentId`, or Apollo's
 * `extensions.persistedQuery.sha256Hash`) or sends the known text itself, as both of mnemo's own clients do,
 * so they work the same against a server with or without the option. Any other document is refused, except,
 * when `adminArbitrary` is set, for admin tokens (an operator's ad-hoc queries).
 */
export interface TrustedDocuments {
  readonly size: number;
  /** The text of a known document. */
  get(hash: string): string | undefined;
  /** The document an operation may run, for the transports yoga's plugin does not see (WebSocket); throws the same errors. */
  admit(params: OperationParams, isAdmin: boolean): string;
  readonly adminArbitrary: boolean;
}

export interface OperationParams {
  query?: string;
  documentId?: unknown;
  extensions?: Record<string, unknown> | null;
}

/** The manifest's key of a document: the lowercase hex SHA-256 of its exact text. */
export function documentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class TrustedDocumentsError extends Error {}

/** Reads a manifest (`{ "<sha256>": "<document>" }`), or every *.json manifest of a folder. */
export function loadTrustedDocuments(location: string, options: { adminArbitrary: boolean }): TrustedDocuments {
  const files = isFolder(location)
    ? readdirSync(location)
        .filter((name) => name.endsWith('.json'))
        .map((name) => path.join(location, name))
    : [location];
  const documents = new Map<string, string>();
  for (const file of files) {
    for (const [hash, text] of Object.entries(readManifest(file))) {
      if (typeof text !== 'string' || documentHash(text) !== hash) {
        throw new TrustedDocumentsError(`${file}: the document under ${hash} is not a string with that SHA-256`);
      }
      documents.set(hash, text);
    }
  }
  if (documents.size === 0) throw new TrustedDocumentsError(`${location} holds no trusted documents`);
  return trustedDocuments(documents, options.adminArbitrary);
}

export function trustedDocuments(documents: ReadonlyMap<string, string>, adminArbitrary: boolean): TrustedDocuments {
  return {
    size: documents.size,
    adminArbitrary,
    get: (hash) => documents.get(hash),
    admit(params, isAdmin) {
      if (params.query) {
        if (documents.has(documentHash(params.query)) || (adminArbitrary && isAdmin)) return params.query;
        throw errors.unknownText();
      }
      const id = operationId(params);
      if (id === null) throw errors.idRequired();
      const text = documents.get(id);
      if (text === undefined) throw errors.notFound();
      return text;
    },
  };
}

/**
 * Yoga's persisted operations plugin over the manifest, after a step that turns a known document's text into
 * its hash (the plugin itself takes a text only as an arbitrary document).
 */
export function useTrustedDocuments(trusted: TrustedDocuments, isAdminRequest: (request: Request) => Promise<boolean>): Plugin[] {
  const knownTextById: Plugin = {
    onParams({ params, setParams }) {
      if (!params.query) return;
      const hash = documentHash(params.query);
      if (trusted.get(hash) === undefined) return;
      setParams({ ...params, query: undefined, extensions: { ...params.extensions, persistedQuery: { version: 1, sha256Hash: hash } } });
    },
  };
  return [
    knownTextById,
    usePersistedOperations({
      getPersistedOperation: (hash) => trusted.get(hash) ?? null,
      extractPersistedOperationId: (params) => operationId(params as OperationParams),
      allowArbitraryOperations: (request) => trusted.adminArbitrary && isAdminRequest(request),
      customErrors: { notFound: errors.notFound, keyNotFound: errors.idRequired, persistedQueryOnly: errors.unknownText },
    }),
  ];
}

function operationId(params: OperationParams): string | null {
  if (typeof params.documentId === 'string') return params.documentId.replace(/^sha256:/, '');
  const persisted = params.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
  return typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

const refusal = (message: string, code: string) => () => createGraphQLError(message, { extensions: { code, http: { status: 400 } } });

const errors = {
  unknownText: refusal(
    'this server runs trusted documents only, and this document is not one of them (MNEMO_TRUSTED_DOCUMENTS)',
    'PERSISTED_QUERY_ONLY',
  ),
  idRequired: refusal('send a document, or the SHA-256 of a trusted one as documentId', 'PERSISTED_QUERY_ID_REQUIRED'),
  notFound: refusal('no trusted document has this SHA-256', 'PERSISTED_QUERY_NOT_IN_LIST'),
};

function isFolder(location: string): boolean {
  try {
    return statSync(location).isDirectory();
  } catch {
    throw new TrustedDocumentsError(`${location} does not exist`);
  }
}

function readManifest(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TrustedDocumentsError(`${file} is not a JSON manifest: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TrustedDocumentsError(`${file} is not a JSON object of SHA-256 → document`);
  }
  return parsed as Record<string, unknown>;
}
