import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { documentHash } from '../server/graphql/trustedDocuments.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The generated modules whose documents mnemo's own clients send: Memory Studio's and @mnemo/client's. */
const SOURCES = ['admin/src/generated/graphql.ts', 'client/src/generated/graphql.ts'];

/**
 * The trusted-documents manifest (`{ "<sha256>": "<document>" }`) of every operation document that codegen
 * generated for Memory Studio and @mnemo/client: the exact strings they send, read from the generated modules
 * themselves (their `…Document` exports), so a hash can never drift from what goes on the wire.
 */
export async function trustedDocumentsManifest(): Promise<Record<string, string>> {
  const manifest: Record<string, string> = {};
  for (const source of SOURCES) {
    // Imported by URL: the admin's module is type-checked with the admin's own configuration, not this one.
    const generated: Record<string, unknown> = await import(pathToFileURL(path.join(ROOT, source)).href);
    for (const [name, value] of Object.entries(generated)) {
      if (!name.endsWith('Document') || !(value instanceof String)) continue;
      const text = value.toString();
      manifest[documentHash(text)] = text;
    }
  }
  return manifest;
}

/** `npm run trusted-documents [file]`: writes the manifest (default dist/trusted-documents.json). */
if (process.argv[1] === import.meta.filename) {
  const file = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/trusted-documents.json'));
  const manifest = await trustedDocumentsManifest();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`${Object.keys(manifest).length} trusted documents written to ${path.relative(process.cwd(), file)}\n`);
}
