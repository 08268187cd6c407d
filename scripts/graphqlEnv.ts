import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { minifyIntrospection, outputIntrospectionFile } from 'gql.tada/internal';
import { buildSchema, introspectionFromSchema } from 'graphql';

/**
 * Writes test/generated/graphql-env.d.ts, the introspection of schema.graphql as a type, from which the tests'
 * inline graphql() documents (test/helpers/graphql.ts) get their result and variable types: no generation step per
 * document. `--check` fails when the file is stale (part of `npm run codegen:check`).
 */
const root = path.resolve(import.meta.dirname, '..');
const file = path.join(root, 'test/generated/graphql-env.d.ts');
const schema = buildSchema(readFileSync(path.join(root, 'schema.graphql'), 'utf8'));
const output = outputIntrospectionFile(minifyIntrospection(introspectionFromSchema(schema)), { fileType: '.d.ts', shouldPreprocess: true });

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current !== output) {
    console.error('test/generated/graphql-env.d.ts is stale: run `npm run codegen` and commit it.');
    process.exit(1);
  }
  console.log('test/generated/graphql-env.d.ts is up to date.');
} else {
  writeFileSync(file, output);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
