import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * The admin app's only way to talk to the server: typed React Query hooks generated from the committed
 * schema.graphql and the operations in admin/src/**\/*.graphql. `npm run codegen` writes them;
 * `npm run codegen:check` (part of `npm test`) fails when they are stale.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['admin/src/**/*.graphql'],
  generates: {
    'admin/src/generated/graphql.ts': {
      // typescript-operations v6 emits the enums and inputs the operations use; the full `typescript` plugin would repeat them.
      plugins: ['typescript-operations', 'typescript-react-query'],
      config: {
        reactQueryVersion: 5,
        fetcher: '../lib/fetcher#fetcher',
        exposeQueryKeys: true,
        exposeFetcher: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true },
        scalars: { DateTime: 'string', JSONObject: 'Record<string, unknown>' },
      },
    },
  },
};

export default config;
