import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents as plain strings: the operations' result and variable types, no graphql-js needed to send them. */
const typedDocuments = {
  plugins: ['typescript-operations', 'typed-document-node'],
  config: {
    documentMode: 'string',
    enumsAsTypes: true,
    useTypeImports: true,
    avoidOptionals: { field: true, inputValue: false, object: true },
    scalars: { DateTime: 'string', JSONObject: 'Record<string, unknown>', File: 'File' },
  },
};

/**
 * The admin app's only way to talk to the server: typed React Query hooks generated from the committed
 * schema.graphql and the operations in admin/src/**\/*.graphql; @mnemo/client's typed documents from
 * client/src/**\/*.graphql; the tests' from test/**\/*.graphql. `npm run codegen` writes them; `npm run
 * codegen:check` (part of `npm test`) fails when they are stale. Each output names its own documents (root-level
 * documents would reach every output).
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    'admin/src/generated/graphql.ts': {
      documents: ['admin/src/**/*.graphql'],
      // typescript-operations v6 emits the enums and inputs the operations use; the full `typescript` plugin would repeat them.
      plugins: ['typescript-operations', 'typescript-react-query'],
      config: {
        reactQueryVersion: 5,
        fetcher: '../lib/fetcher#fetcher',
        exposeQueryKeys: true,
        exposeFetcher: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true },
        scalars: { DateTime: 'string', JSONObject: 'Record<string, unknown>', File: 'File' },
      },
    },
    // @mnemo/client's typed documents: TypedDocumentNode types over plain strings (documentMode 'string'), so
    // the client needs neither graphql-js at run time nor a parse to send one, and what it sends is the exact
    // text that the trusted-documents manifest hashes.
    'client/src/generated/graphql.ts': { documents: ['client/src/**/*.graphql'], ...typedDocuments },
    // The tests' shared operations, typed the same way: the test app's ok() and gql() take these documents and
    // return their result types, so a schema change that breaks a test's operation or what it reads fails at
    // type-check instead of at run time. A test's own operations may instead be written inline with graphql()
    // (test/helpers/graphql.ts), typed by gql.tada from test/generated/graphql-env.d.ts, which `npm run codegen`
    // also writes (scripts/graphqlEnv.ts).
    'test/generated/graphql.ts': { documents: ['test/**/*.graphql'], ...typedDocuments },
  },
};

export default config;
