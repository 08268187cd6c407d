import { useState } from 'react';
import { useExportMemoriesQuery } from '../generated/graphql';
import { downloadJson, exportFile, exportFileName } from './exportFile';
import { plural } from './format';
import type { FilterVariables } from './types';

interface Props {
  filters: FilterVariables;
  onDone: (message: string) => void;
  onError: (error: unknown) => void;
}

/**
 * Downloads every memory matching the current filters (not just the page) as a JSON file that the Import
 * panel reads back. Fetched on demand and not cached: an export can be large.
 */
export function ExportButton({ filters, onDone, onError }: Props) {
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    try {
      const data = await useExportMemoriesQuery.fetcher(filters)();
      const now = new Date();
      downloadJson(exportFile(data.exportMemories, filters, now), exportFileName(filters, now));
      onDone(`Exported ${plural(data.exportMemories.length, 'memory', 'memories')} to a JSON file.`);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" onClick={run} disabled={busy} title="Every memory matching the filters, as a JSON file">
      {busy ? 'Exporting…' : 'Export JSON'}
    </button>
  );
}
