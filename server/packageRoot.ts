import path from 'node:path';

/**
 * The package's own folder (where package.json, migrations/ and admin/dist/ live), the same whether the server
 * runs from source (server/x.ts under tsx) or compiled (dist/server/x.js under node).
 */
export const PACKAGE_ROOT = path.resolve(import.meta.dirname, import.meta.filename.endsWith('.js') ? '../..' : '..');
