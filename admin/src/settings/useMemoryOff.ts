import { useMemorySettingsQuery } from '../generated/graphql';

/**
 * The loaded settings say memory is off. False while they load or when loading them failed: then nothing is known,
 * and the screen's own error handling speaks.
 */
export function useMemoryOff(): boolean {
  const settings = useMemorySettingsQuery();
  return settings.isSuccess && !settings.data.memorySettings.enabled;
}
