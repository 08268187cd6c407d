import type { Migration } from 'kysely';
import * as initial from './2026_11_30_001_initial.ts';
import * as vectorEngine from './2026_11_30_002_vector_engine.ts';
import * as qdrantOutbox from './2026_11_30_003_qdrant_outbox.ts';
import * as tenantTermsFts from './2026_11_30_004_tenant_terms_fts.ts';
import * as keylessProviders from './2026_12_01_005_keyless_providers.ts';
import * as coveringSummaries from './2026_12_01_006_covering_summaries.ts';
import * as profileIndex from './2026_12_01_007_profile_index.ts';
import * as qdrantOutboxFlag from './2026_12_01_008_qdrant_outbox_flag.ts';
import * as erasableKeywordIndex from './2026_12_02_009_erasable_keyword_index.ts';
import * as tokenMayForgetKey from './2026_12_02_010_token_may_forget_key.ts';
import * as healthProbe from './2026_12_02_011_health_probe.ts';
import * as reindexOwner from './2026_12_02_012_reindex_owner.ts';
import * as auditLog from './2026_12_02_013_audit_log.ts';
import * as tokenStart from './2026_12_02_016_token_start.ts';
import * as replicaCoordination from './2026_12_02_017_replica_coordination.ts';
import * as turnFactLinks from './2026_12_06_018_turn_fact_links.ts';
import * as extractionModelUsage from './2026_12_06_019_extraction_model_usage.ts';
import * as memoryHistory from './2026_12_06_020_memory_history.ts';
import * as supersession from './2026_12_06_021_supersession.ts';
import * as injectionLog from './2026_12_06_024_injection_log.ts';
import * as versionsKeepValidity from './2026_12_06_026_versions_keep_validity.ts';
import * as tombstones from './2026_12_06_027_tombstones.ts';
import * as evaluation from './2026_12_06_028_evaluation.ts';
import * as factSignatures from './2026_12_06_029_fact_signatures.ts';
import * as keywordChanges from './2026_12_07_030_keyword_changes.ts';

/**
 * Every migration by name, in order. Listed statically (not read from the folder at run time) so the
 * same list works under tsx, vitest and any bundler.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_30_001_initial': initial,
  '2026_11_30_002_vector_engine': vectorEngine,
  '2026_11_30_003_qdrant_outbox': qdrantOutbox,
  '2026_11_30_004_tenant_terms_fts': tenantTermsFts,
  '2026_12_01_005_keyless_providers': keylessProviders,
  '2026_12_01_006_covering_summaries': coveringSummaries,
  '2026_12_01_007_profile_index': profileIndex,
  '2026_12_01_008_qdrant_outbox_flag': qdrantOutboxFlag,
  '2026_12_02_009_erasable_keyword_index': erasableKeywordIndex,
  '2026_12_02_010_token_may_forget_key': tokenMayForgetKey,
  '2026_12_02_011_health_probe': healthProbe,
  '2026_12_02_012_reindex_owner': reindexOwner,
  '2026_12_02_013_audit_log': auditLog,
  '2026_12_02_016_token_start': tokenStart,
  '2026_12_02_017_replica_coordination': replicaCoordination,
  '2026_12_06_018_turn_fact_links': turnFactLinks,
  '2026_12_06_019_extraction_model_usage': extractionModelUsage,
  '2026_12_06_020_memory_history': memoryHistory,
  '2026_12_06_021_supersession': supersession,
  '2026_12_06_024_injection_log': injectionLog,
  '2026_12_06_026_versions_keep_validity': versionsKeepValidity,
  '2026_12_06_027_tombstones': tombstones,
  '2026_12_06_028_evaluation': evaluation,
  '2026_12_06_029_fact_signatures': factSignatures,
  '2026_12_07_030_keyword_changes': keywordChanges,
};
