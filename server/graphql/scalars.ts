import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from './builder.ts';

const badValue = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 string with a time zone (2026-01-31T12:00:00Z).',
  serialize: (d) => d.toISOString(),
  parseValue: (v) => parseDate(v),
  parseLiteral: (ast) => parseDate(ast.kind === Kind.STRING ? ast.value : undefined),
});

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

function parseDate(v: unknown): Date {
  if (typeof v !== 'string' || !ISO.test(v)) throw badValue('DateTime must be an ISO 8601 string such as 2026-01-31T12:00:00Z');
  const d = new Date(v);
  if (Number.isNaN(d.getTime()) || !isCalendarDay(v)) throw badValue(`"${v}" is not a valid date`);
  return d;
}

/** JavaScript rolls impossible days over (2026-02-30 becomes March 2) instead of rejecting them. */
function isCalendarDay(v: string): boolean {
  const [year, month, day] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

builder.scalarType('JSONObject', {
  description: 'A JSON object (not an array, string or number).',
  serialize: (v) => v,
  parseValue: (v) => asObject(v),
  parseLiteral: (ast) => asObject(literalValue(ast)),
});

function asObject(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badValue('metadata must be a JSON object');
  return v as Record<string, unknown>;
}

function literalValue(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalValue(f.value)]));
    case Kind.LIST:
      return ast.values.map(literalValue);
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
