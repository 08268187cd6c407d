import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import { forbidden } from '../errors.ts';
import type { Context } from './context.ts';

export interface PothosTypes {
  Context: Context;
  DefaultFieldNullability: false;
  AuthScopes: { admin: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    File: { Input: File; Output: never };
  };
}

/** Builder setup only; the types are added by the *.schema.ts files beside this one, one per domain, which schema.ts loads. */
export const builder = new SchemaBuilder<PothosTypes>({
  plugins: [ScopeAuthPlugin, SimpleObjectsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({ admin: ctx.viewer.role === 'admin' }),
    unauthorizedError: () => forbidden('this operation needs an admin token'),
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
