import type { ProviderService } from '../embedding/provider.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { QdrantService } from '../vector/qdrant.service.ts';
import type { QdrantSettingsStore } from '../vector/qdrantSettings.ts';

/**
 * States of what admins configure, as `fieldChanges` compares them before and after a change: every field an
 * admin can set, secrets included under the names in `secrets` (compared, never recorded).
 */
export interface Snapshot {
  take(): Promise<Record<string, unknown> | null>;
  secrets: readonly string[];
}

export const settingsSnapshot = (deps: { settings: SettingsService }): Snapshot => ({ take: () => deps.settings.get(), secrets: [] });

export const providerSnapshot = (deps: { providers: ProviderService }, id: string): Snapshot => ({
  take: async () => {
    const stored = await deps.providers.stored(id);
    return stored && { baseUrl: stored.baseUrl, keyless: stored.keyless, models: stored.models, apiKey: stored.apiKey };
  },
  secrets: ['apiKey'],
});

export const qdrantSnapshot = (deps: { qdrant: QdrantService; qdrantSettings: QdrantSettingsStore }): Snapshot => ({
  take: async () => {
    const { enabled, url, collection, quantization, timeoutMs } = await deps.qdrant.settings();
    return { enabled, url, collection, quantization, timeoutMs, apiKey: await deps.qdrantSettings.apiKey() };
  },
  secrets: ['apiKey'],
});
