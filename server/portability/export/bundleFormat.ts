import type { MemoryType } from '../../memory/memory.ts';

/**
 * mnemo's export bundle, JSON lines: a header, then a line per memory (its fields, validity, what superseded it and
 * the versions its history keeps), then a line per tombstone. The header's checksum is the sha256 of every byte after
 * the header's line, so an importer can refuse a damaged or edited bundle before it writes anything.
 */
export const BUNDLE_FORMAT = 'mnemo-export';
export const BUNDLE_VERSION = 1;

export interface BundleCounts {
  memories: number;
  /** Versions, over all memories. */
  versions: number;
  tombstones: number;
}

export interface BundleHeader {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  exportedAt: string;
  /** The key exported; null: every key. */
  apiKeyId: string | null;
  counts: BundleCounts;
  /** sha256, hex, of the bytes after the header's line. */
  checksum: string;
}

/** A version of a memory as its history keeps it (memory/history.service.ts); times as ISO text. */
export interface BundleVersion {
  content: string;
  type: MemoryType;
  metadata: Record<string, unknown>;
  expiresAt: string | null;
  validFrom: string | null;
  validTo: string | null;
  /** The id, in the exporting store, of what superseded the memory then. */
  supersededBy: string | null;
  changedAt: string;
  changedBy: string;
  reason: string;
}

/** What ended a memory that no longer holds: the memory that replaced it (its id in the exporting store), and why. */
export interface BundleSupersession {
  id: string;
  rule: string;
  sentence: string | null;
}

export interface BundleMemory {
  kind: 'memory';
  /** Its id in the exporting store: what supersession links name. */
  id: string;
  apiKeyId: string;
  sessionId: string | null;
  type: MemoryType;
  key: string;
  content: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  validFrom: string;
  validTo: string | null;
  supersededBy: BundleSupersession | null;
  /** Oldest first. */
  versions: BundleVersion[];
}

export interface BundleTombstone {
  kind: 'tombstone';
  apiKeyId: string;
  sessionId: string | null;
  memoryId: string;
  /** sha256 of the deleted memory's key, hex; never the key. */
  keyDigest: string;
  deletedAt: string;
  deletedBy: string;
}

export type BundleLine = BundleMemory | BundleTombstone;
