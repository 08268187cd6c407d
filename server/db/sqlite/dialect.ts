import { migrations } from '../../../migrations/index.ts';
import type { StoreDialect } from '../storeDialect.ts';
import { addKeyRetrievals, addMemoryAccess } from './accessWrite.ts';
import { withChange } from './changeContext.ts';
import { databaseFile } from './databaseFile.ts';
import { describe } from './description.ts';
import { jsonArrayRows, jsonValue } from './json.ts';
import { forgetKeywordChanges } from './keywordIndex.ts';
import { keywordCandidates, listSearchMatches, probeKeywordIndex } from './keywordSearch.ts';
import { checkpointWal, emptyWalNow, mergeKeywordIndex, optimizeDatabase } from './maintenance.ts';
import { mergedMetadata } from './memoryUpsert.ts';
import { newestInScope } from './newestInScope.ts';
import { isProfileMemory } from './profileFilter.ts';
import { storeSize } from './storeSize.ts';
import { keyEquals, likeIgnoringAsciiCase, startsWith } from './textMatch.ts';

/** The embedded SQLite store: FTS5 for keywords, sqlite-vec for vectors, all in one file with its write-ahead log. */
export const sqliteDialect: StoreDialect = {
  kind: 'sqlite',
  migrations,
  keepsVectors: true,
  parallelReads: false,
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
  // The log is emptied at once; its pages were zeroed on delete (secure_delete).
  afterErase: emptyWalNow,
  storeSize,
  describe,
  databaseFile,
};
