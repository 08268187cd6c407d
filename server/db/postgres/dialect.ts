import { postgresMigrations } from '../../../migrations/postgres/index.ts';
import type { StoreDialect } from '../storeDialect.ts';
import { addKeyRetrievals, addMemoryAccess } from './accessWrite.ts';
import { withChange } from './changeContext.ts';
import { describe } from './description.ts';
import { jsonArrayRows, jsonValue } from './json.ts';
import { forgetKeywordChanges } from './keywordIndex.ts';
import { keywordCandidates, listSearchMatches, probeKeywordIndex } from './keywordSearch.ts';
import { checkpointWal, mergeKeywordIndex, optimizeDatabase } from './maintenance.ts';
import { mergedMetadata } from './memoryUpsert.ts';
import { newestInScope } from './newestInScope.ts';
import { isProfileMemory } from './profileFilter.ts';
import { storeSize } from './storeSize.ts';
import { keyEquals, likeIgnoringAsciiCase, startsWith } from './textMatch.ts';
import { vacuumErased } from './vacuum.ts';

/** A PostgreSQL server, shared by replicas: postings in a B-tree for keywords, no vectors of its own (Qdrant holds them). */
export const postgresDialect: StoreDialect = {
  kind: 'postgres',
  migrations: postgresMigrations,
  keepsVectors: false,
  parallelReads: true,
  keywordSearch: { keywordCandidates, listSearchMatches, probeKeywordIndex, forgetKey: forgetKeywordChanges },
  mergedMetadata,
  withChange,
  newestInScope,
  addMemoryAccess,
  addKeyRetrievals,
  isProfileMemory,
  jsonValue,
  jsonArrayRows,
  likeIgnoringAsciiCase,
  startsWith,
  keyEquals,
  optimizeDatabase,
  mergeKeywordIndex,
  checkpointWal,
  afterErase: vacuumErased,
  storeSize,
  describe,
  // The server's files are its own: mnemo never reads them.
  databaseFile: async () => null,
};
