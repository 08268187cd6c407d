import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that install packages or drive Chromium: tens of seconds each, against a second or two for most others.
 * They start first, so that the other files fill the workers around them instead of one of them running alone at
 * the end. Vitest orders the rest by the durations it remembers, or by file size on a fresh install.
 */
const LONGEST = ['test/packaging/', 'test/e2e/'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const at = path.relative(this.ctx.config.root, file.moduleId);
      const index = LONGEST.findIndex((folder) => at.startsWith(folder));
      return index === -1 ? LONGEST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // One worker per core (Vitest's default leaves one core to itself): a worker spends much of its time waiting
    // on the processes its tests start (mnemo, Chromium, npm), which the other core's worker fills.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirst },
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
