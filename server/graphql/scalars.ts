import { type ASTNode, GraphQLError, Kind, type ValueNode } from 'graphql';
import { checkInput, dateTimeSchema, protoKeyRefused } from '../validation.ts';
import { builder } from './builder.ts';

const badValue = (message: string, node?: ASTNode) => new GraphQLError(message, { nodes: node, extensions: { code: 'BAD_USER_INPUT' } });

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 string with a time zone (2026-01-31T12:00:00Z).',
  serialize: (d) => d.toISOString(),
  parseValue: (v) => parseDate(v),
  parseLiteral: (ast) => parseDate(ast.kind === Kind.STRING ? ast.value : undefined),
});

function parseDate(v: unknown): Date {
  const checked = checkInput(dateTimeSchema, v);
  if (!checked.ok) throw badValue(checked.problems);
  return checked.value;
}

builder.scalarType('File', {
  description: 'A file sent with the operation as a multipart request (the GraphQL multipart request spec); input only.',
  serialize: () => {
    throw new GraphQLError('File is an input type only');
  },
  // yoga's multipart parser gives its fetch implementation's File, not necessarily Node's own class.
  parseValue: (v) => {
    const file = v as Partial<File> | null;
    if (typeof file?.stream !== 'function' || typeof file.name !== 'string')
      throw badValue('expected a file sent as a part of a multipart request');
    return file as File;
  },
  parseLiteral: (ast) => {
    throw badValue('a file cannot be written in the operation: send it as a part of a multipart request', ast);
  },
});

builder.scalarType('JSONObject', {
  description: 'A JSON object (not an array, string or number).',
  serialize: (v) => v,
  parseValue: (v) => asObject(v),
  parseLiteral: (ast) => asObject(literalValue(ast, '')),
});

/**
 * Only the shape, not a schema's walk and copy of the whole object (an injectMemory request is one): the operations
 * check what each object holds (its size, its depth) themselves. Named for its commonest use.
 */
function asObject(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badValue('metadata must be a JSON object');
  return v as Record<string, unknown>;
}

/** A literal's value; `at` is its path inside the outermost object ('note.list[0]'), to name where a refused key lies. */
function literalValue(ast: ValueNode, at: string): unknown {
  switch (ast.kind) {
    case Kind.OBJECT:
      return Object.fromEntries(
        ast.fields.map((f) => {
          if (f.name.value === '__proto__') throw badValue(protoKeyRefused(at || 'this object'), f);
          return [f.name.value, literalValue(f.value, at ? `${at}.${f.name.value}` : f.name.value)];
        }),
      );
    case Kind.LIST:
      return ast.values.map((v, i) => literalValue(v, `${at}[${i}]`));
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      throw badValue('variables inside a JSONObject literal are not supported; pass the whole object as a variable');
  }
}
