/**
 * The Babel config dependency-cruiser parses server/ with (see .dependency-cruiser.cjs). Its own TypeScript parser
 * needs the compiler API of TypeScript 6 or older, and TypeScript 7 has none; so each file goes through esbuild with
 * this tsconfig first, which drops exactly the imports that tsx and the server build drop (type-only ones, under
 * verbatimModuleSyntax), and what is left is the module as it runs.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('esbuild');

const tsconfigRaw = readFileSync(join(__dirname, '..', 'tsconfig.json'), 'utf8');

module.exports = {
  plugins: [
    () => ({
      parserOverride(code, parserOpts, parse) {
        const loader = /\.[cm]?ts$/.test(parserOpts.sourceFileName) ? 'ts' : 'js';
        return parse(transformSync(code, { loader, format: 'esm', tsconfigRaw }).code, parserOpts);
      },
    }),
  ],
};
