import { useQueryClient } from '@tanstack/react-query';
import { useMemorySettingsQuery, useUpdateMemorySettingsMutation } from '../generated/graphql';

/**
 * Saves a settings patch and puts the server's answer into the shared settings cache, so every screen that reads the
 * settings (the memory-off banner, the Playground, the Settings form) shows what was saved at once.
 */
export function useSaveMemorySettings(options: { onSaved?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useUpdateMemorySettingsMutation({
    onSuccess: (result) => {
      queryClient.setQueryData(useMemorySettingsQuery.getKey(), { memorySettings: result.updateMemorySettings });
      options.onSaved?.();
    },
  });
}
