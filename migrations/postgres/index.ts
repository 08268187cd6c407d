import type { Migration } from 'kysely';
import * as initial from './2026_12_02_001_initial.ts';
import * as keywordIndex from './2026_12_02_002_keyword_index.ts';
import * as storeCopy from './2026_12_02_003_store_copy.ts';
import * as replicaCoordination from './2026_12_02_004_replica_coordination.ts';
import * as keywordPostings from './2026_12_02_005_keyword_postings.ts';
import * as turnFactLinks from './2026_12_06_006_turn_fact_links.ts';
import * as extractionModelUsage from './2026_12_06_007_extraction_model_usage.ts';
import * as memoryHistory from './2026_12_06_008_memory_history.ts';
import * as supersession from './2026_12_06_009_supersession.ts';
import * as injectionLog from './2026_12_06_012_injection_log.ts';
import * as keyPrefixIndex from './2026_12_06_013_key_prefix_index.ts';
import * as versionsKeepValidity from './2026_12_06_014_versions_keep_validity.ts';
import * as postingFrequencyInline from './2026_12_06_015_posting_frequency_inline.ts';
import * as tombstones from './2026_12_06_016_tombstones.ts';
import * as evaluation from './2026_12_06_017_evaluation.ts';
import * as factSignatures from './2026_12_06_018_fact_signatures.ts';
import * as newestFromIndex from './2026_12_07_019_newest_from_index.ts';
import * as keywordChanges from './2026_12_07_020_keyword_changes.ts';

/** Every PostgreSQL migration by name, in order; listed statically like the SQLite ones (../index.ts). */
export const postgresMigrations: Record<string, Migration> = {
  '2026_12_02_001_initial': initial,
  '2026_12_02_002_keyword_index': keywordIndex,
  '2026_12_02_003_store_copy': storeCopy,
  '2026_12_02_004_replica_coordination': replicaCoordination,
  '2026_12_02_005_keyword_postings': keywordPostings,
  '2026_12_06_006_turn_fact_links': turnFactLinks,
  '2026_12_06_007_extraction_model_usage': extractionModelUsage,
  '2026_12_06_008_memory_history': memoryHistory,
  '2026_12_06_009_supersession': supersession,
  '2026_12_06_012_injection_log': injectionLog,
  '2026_12_06_013_key_prefix_index': keyPrefixIndex,
  '2026_12_06_014_versions_keep_validity': versionsKeepValidity,
  '2026_12_06_015_posting_frequency_inline': postingFrequencyInline,
  '2026_12_06_016_tombstones': tombstones,
  '2026_12_06_017_evaluation': evaluation,
  '2026_12_06_018_fact_signatures': factSignatures,
  '2026_12_07_019_newest_from_index': newestFromIndex,
  '2026_12_07_020_keyword_changes': keywordChanges,
};
