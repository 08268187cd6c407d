/**
 * The shape of server/ that `npm run deps:check` keeps. The wings stack one way: gateway → retrieval → memory →
 * search → db, each importing only the ones below it (a store's own folder, if it leaves db/, counts as db). The API
 * layers (graphql/, mcp/) sit above the domain and are imported by nothing in it, and no server module loads test
 * code. Only runtime imports count: a type import does not load a module, so it can neither make a cycle nor pull a
 * wing into another at run time.
 */

// dependency-cruiser reads .ts through Babel 7 (scripts/stripTypes.babel.cjs) and, without it, falls back to a loose
// parser that misreads TypeScript without a word; so a missing or other Babel stops the check instead.
const { version: babelVersion } = require('@babel/core');
if (!babelVersion.startsWith('7.')) throw new Error(`deps:check needs @babel/core 7, found ${babelVersion}`);

/** Folders: written as folders, not files, so that a file added to or moved within a wing needs no change here. */
const wing = (...names) => `^server/(${names.join('|')})/`;

/** Each wing, lowest first, with the wings above it that it must not import. */
const wingOrder = [
  ['db|stores', 'search|memory|retrieval|gateway'],
  ['search', 'memory|retrieval|gateway'],
  ['memory', 'retrieval|gateway'],
  ['retrieval', 'gateway'],
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment: 'A module of server/ reaches itself again through runtime imports.',
      severity: 'error',
      from: { path: '^server/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    ...wingOrder.map(([lower, higher]) => ({
      name: `wing-order-${lower.split('|')[0]}`,
      comment: `The wings stack gateway → retrieval → memory → search → db: ${lower} imports none of ${higher.replaceAll('|', ', ')}.`,
      severity: 'error',
      from: { path: wing(lower) },
      to: { path: wing(higher) },
    })),
    {
      name: 'domain-not-to-api',
      comment: 'graphql/ and mcp/ are the API layers over the domain; the domain never imports them.',
      severity: 'error',
      from: { path: wing('gateway|retrieval|memory|search|db|stores|settings|auth|vector|embedding|jobs|audit|backup') },
      to: { path: wing('graphql|mcp') },
    },
    {
      name: 'server-not-to-test',
      comment: 'Test code is not shipped: nothing in server/ may load it.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^test/' },
    },
    {
      name: 'server-imports-resolve',
      comment: 'An import this check cannot resolve is one whose wing it cannot judge.',
      severity: 'error',
      from: { path: '^server/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // Resolve as Node does for this ESM package: the specifiers name their .ts files, and a package's subpaths come
    // from its "exports" under the import condition.
    enhancedResolveOptions: {
      extensions: ['.ts', '.mjs', '.js'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
    },
    babelConfig: { fileName: 'scripts/stripTypes.babel.cjs' },
  },
};
