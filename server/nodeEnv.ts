/**
 * NODE_ENV defaults to 'production' for the server and the bench. Imported first by their entry points
 * (server/main.ts, bench/run.ts): graphql-js reads it once, when it loads.
 *
 * What it changes, in the server's dependencies: graphql-js's `instanceOf` (isObjectType, isNonNullType, ...,
 * about 2,200 calls per `retrieve` request) is then a plain `instanceof`. Otherwise each call that answers
 * false also reads both classes' names, looking for a second copy of graphql in node_modules: ~0.08-0.1 ms
 * per retrieve request, a sixth of what yoga adds around the resolver. Nothing else does: yoga and envelop
 * look for 'development' (stack traces in masked errors) and 'test' (SSE ping interval), the graphql-armor
 * plugins ship identical dev and prod builds, and the admin app's React is bundled by vite, not loaded here.
 *
 * Safe because a second graphql copy is a packaging fault that the check would report at once, not a state
 * the server runs in: `npm ls graphql` shows one copy (graphql's CommonJS build; it has no "exports" map, so
 * ESM imports load the same files). An explicit NODE_ENV is kept: vitest runs with 'test', so the test suite
 * still makes graphql-js check every instanceOf, and anyone can run `NODE_ENV=development mnemo serve`.
 */
process.env.NODE_ENV ??= 'production';
