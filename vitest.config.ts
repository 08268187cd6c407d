import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module) builds; Node loads the CJS one for dependencies, so our
  // own imports must too, or GraphQLError from the two copies fails instanceof checks.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    environment: 'node',
    pool: 'forks',
    // A worker runs its test files one after another in one module graph: the server's modules (graphql, Pothos,
    // the tokenizer, ...) are loaded once per worker instead of once per file, which was most of a run's time. Test
    // files therefore leave no state behind: apps closed, mocks restored, real timers back.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // `npm test`: every behaviour, on data sizes that take seconds.
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'], exclude: ['test/slow/**'] } },
      // `npm run test:slow`: the same behaviours at 100,000 memories, where a quadratic plan or a missing
      // tenant partition would show; minutes on two cores.
      { extends: true, test: { name: 'slow', include: ['test/slow/**/*.test.ts'] } },
    ],
  },
});
