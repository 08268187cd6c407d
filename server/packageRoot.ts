import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The package's own folder (where package.json, migrations/ and admin/dist/ live), the same whether the server
 * runs from source (server/x.ts under tsx) or bundled (dist/server/*.js under node).
 */
export const PACKAGE_ROOT = path.resolve(import.meta.dirname, import.meta.filename.endsWith('.js') ? '../..' : '..');

/** The package's version, read from its package.json at run time (an import would copy the file into dist/, which the package does not ship). */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
