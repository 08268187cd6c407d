import type { ExportMemoriesQuery } from '../generated/graphql';
import { saveBlob } from '../lib/saveBlob';
import type { FilterVariables } from './types';

/** The file the Export button writes and the Import panel reads back. */
export interface ExportFile {
  format: 'mnemo.memories';
  version: 1;
  exportedAt: string;
  filters: FilterVariables;
  count: number;
  memories: ExportMemoriesQuery['exportMemories'];
}

export function exportFile(memories: ExportMemoriesQuery['exportMemories'], filters: FilterVariables, now = new Date()): ExportFile {
  return { format: 'mnemo.memories', version: 1, exportedAt: now.toISOString(), filters, count: memories.length, memories };
}

export function exportFileName(filters: FilterVariables, now = new Date()): string {
  const scope = filters.apiKeyId ? `-${filters.apiKeyId.replace(/[^\w.-]+/g, '_')}` : '';
  return `mnemo-memories${scope}-${now.toISOString().slice(0, 10)}.json`;
}

/** Hands the browser a file to save, without a round trip to the server. */
export function downloadJson(value: unknown, fileName: string) {
  saveBlob(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }), fileName);
}
