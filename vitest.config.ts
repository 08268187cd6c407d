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

/** The suites that run on both stores; the rest test SQLite-only parts (its file, FTS5, sqlite-vec) or no store. */
const POSTGRES_SUITES = [
  'test/server/memory.crud.test.ts',
  'test/server/memory.lifecycle.test.ts',
  'test/server/memory.list.test.ts',
  'test/server/memory.badinput.test.ts',
  'test/server/memory.concurrency.test.ts',
  'test/server/memory.byweek.test.ts',
  'test/server/supersession.test.ts',
  'test/server/supersession.vector.test.ts',
  'test/server/summarize.test.ts',
  'test/server/forget.test.ts',
  'test/server/purge.test.ts',
  'test/server/retention.test.ts',
  'test/server/autoSummarize.test.ts',
  'test/server/accessRecorder.test.ts',
  'test/server/extractFacts.test.ts',
  'test/server/factSupersession.test.ts',
  'test/server/capture.test.ts',
  'test/server/importers.test.ts',
  'test/server/fileImport.test.ts',
  'test/server/exportBundle.test.ts',
  'test/server/tombstones.test.ts',
  'test/server/triggers.test.ts',
  'test/server/erasure.test.ts',
  'test/server/evaluation.test.ts',
  'test/server/memoryHistory.test.ts',
  'test/server/paraphrase.test.ts',
  'test/server/modelExtraction.test.ts',
  'test/server/retrieval.test.ts',
  'test/server/retrievalStages.test.ts',
  'test/server/keywordHead.test.ts',
  'test/server/keywordPostings.test.ts',
  'test/server/profile.test.ts',
  'test/server/inject.test.ts',
  'test/server/leases.test.ts',
  'test/server/configVersion.test.ts',
  'test/server/settings.test.ts',
  'test/server/cli.postgres.test.ts',
  'test/server/storeErrors.test.ts',
  'test/server/backup.test.ts',
  'test/server/http.test.ts',
  'test/server/logs.test.ts',
  'test/server/bodyLimit.test.ts',
  'test/server/schema.test.ts',
  'test/server/qdrant.test.ts',
  'test/server/qdrantNotSelected.test.ts',
  'test/server/reindex.test.ts',
  'test/server/engine.test.ts',
  'test/server/engineCalls.test.ts',
  'test/server/semantic.test.ts',
  'test/server/websocket.test.ts',
  'test/server/auth.test.ts',
  'test/server/audit.test.ts',
  'test/server/health.test.ts',
  'test/server/metrics.test.ts',
  'test/server/wellFormed.test.ts',
  'test/server/specialTokens.test.ts',
  'test/server/receipts.test.ts',
  'test/server/injectionLog.test.ts',
  'test/server/maintenance.test.ts',
];
/** Suites about PostgreSQL itself (copying into it, several processes on one database, its migrations): the postgres project only. */
const POSTGRES_ONLY = ['test/server/copyStore.test.ts', 'test/server/replicas.test.ts', 'test/server/postgresMigrations.test.ts'];

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
    // One worker more than there are cores (Vitest's default leaves one core to itself): a worker spends much of its
    // time waiting on the processes its tests start (mnemo, Chromium, PostgreSQL, npm), which another worker fills.
    // On 2 cores, 3 workers ran the suite in 140 s, 2 in 161 s and 4 in 144 s.
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    // expect.poll waits for what a page shows after a round trip to the server: Vitest's default of one second is
    // less than that takes on a busy 2-core machine (a test failed so, its page right a moment later).
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/runFolder.ts'],
    projects: [
      // `npm test`: every behaviour, on data sizes that take seconds.
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'], exclude: ['test/slow/**', ...POSTGRES_ONLY] } },
      // The storage-level suites again, each test on its own database of a throwaway PostgreSQL 15 cluster
      // (test/helpers/postgresSetup.ts): the same files, so both stores are held to the same behaviour.
      {
        extends: true,
        test: { name: 'postgres', include: [...POSTGRES_SUITES, ...POSTGRES_ONLY], globalSetup: ['test/helpers/postgresSetup.ts'] },
      },
      // `npm run test:slow`: the same behaviours at 100,000 memories, where a quadratic plan or a missing
      // tenant partition would show; minutes on two cores.
      { extends: true, test: { name: 'slow', include: ['test/slow/**/*.test.ts'] } },
    ],
  },
});
