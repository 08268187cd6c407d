import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { printedSchema } from './schema.ts';

/** `schema:print` writes schema.graphql from the Pothos schema; `--check` fails when the file is stale. */
const file = path.resolve(import.meta.dirname, '../../schema.graphql');
const sdl = printedSchema();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current !== sdl) {
    console.error('schema.graphql is stale: run `npm run schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema.graphql is up to date.');
} else {
  writeFileSync(file, sdl);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
