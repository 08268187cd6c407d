import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../server/graphql/schema.ts';

const SCHEMA_FILE = path.resolve(import.meta.dirname, '../../schema.graphql');

describe('schema.graphql', () => {
  it('is exactly the schema the server serves', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const current = printedSchema();
    // A plain boolean first, so a stale file fails with a message that says what to do.
    expect(committed === current, 'schema.graphql is stale: run `npm run schema:print` and commit it').toBe(true);
    expect(committed).toBe(current);
  });

  it('is a valid SDL document that other tools can load', () => {
    const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
    expect(schema.getQueryType()?.name).toBe('Query');
    expect(schema.getMutationType()?.name).toBe('Mutation');
  });
});
