import { initGraphQLTada, type ResultOf, type VariablesOf } from 'gql.tada';
import type { introspection } from '../generated/graphql-env.d.ts';

/**
 * A test's own operation, written where the test uses it:
 *
 *   const STATS = graphql(`query Stats { memoryStats { total } }`);
 *   const data = await app.ok(STATS); // data.memoryStats.total: number
 *
 * gql.tada types it from schema.graphql's introspection (test/generated/graphql-env.d.ts, `npm run codegen`
 * after a schema change), with no generation step per document. The test app's gql()/ok(), subscribe() and the
 * e2e harness take it as they take the generated documents of operations.ts.
 *
 * gql.tada types a field the schema does not have as `unknown` instead of refusing it; this graphql() refuses it at
 * type-check, naming its path (`Not in schema.graphql: memoryStats.totl`), and so a required variable of an input type
 * the schema does not have (an optional one can only be null). A wrong argument is the server's to refuse: the test
 * fails with its message.
 */
export function graphql<const In extends string, const Fragments extends readonly FragmentShape[] = []>(
  input: Checked<In, Document<In, Fragments>>,
  fragments?: Fragments,
): Document<In, Fragments> {
  return document(input as In, fragments);
}

export type { ResultOf, VariablesOf };

const tada = initGraphQLTada<{
  introspection: introspection;
  // As codegen.ts maps them for the generated documents.
  scalars: { DateTime: string; JSONObject: Record<string, unknown>; File: File };
  // A fragment's fields are read where it is spread, as with the generated documents.
  disableMasking: true;
}>();

type FragmentShape = NonNullable<Parameters<typeof tada>[1]>[number];

/** gql.tada's own graphql(), with one signature, so that its document type can be named. */
function document<const In extends string, const Fragments extends readonly FragmentShape[]>(input: In, fragments?: Fragments) {
  return tada(input, fragments);
}
type Document<In extends string, Fragments extends readonly FragmentShape[]> = ReturnType<typeof document<In, Fragments>>;

/** The document's text when every field and variable type is in the schema; otherwise a message naming them. */
type Checked<In extends string, Doc> = [NotInSchema<Doc>] extends [never] ? In : `Not in schema.graphql: ${NotInSchema<Doc>}`;
type NotInSchema<Doc> = UnknownPaths<ResultOf<Doc>, ''> | UnknownPaths<VariablesOf<Doc>, '$'>;

/** The paths of fields typed `unknown` (a result field not in the schema) or `never` (a variable of no such input type). */
type UnknownPaths<T, Path extends string> = [T] extends [never]
  ? Path
  : unknown extends T
    ? Path
    : T extends readonly (infer Item)[]
      ? UnknownPaths<Item, Path>
      : T extends object
        ? string extends keyof T
          ? never // a JSONObject
          : { [K in keyof T & string]-?: UnknownPaths<T[K], Path extends '' | '$' ? `${Path}${K}` : `${Path}.${K}`> }[keyof T & string]
        : never;
