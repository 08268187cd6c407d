import { ErrorNote } from '../components/ErrorNote';
import { useMemoryOff } from './useMemoryOff';
import { useSaveMemorySettings } from './useSaveMemorySettings';

/**
 * Memory is off by default, and then the gateways silently get nothing: every tab says so, with the way to turn it
 * on. Turning it on is an ordinary settings change (audited like one); the banner goes once the saved settings say on.
 */
export function MemoryOffBanner() {
  const off = useMemoryOff();
  const save = useSaveMemorySettings();
  if (!off) return null;
  return (
    <section className="banner banner-warn" aria-label="Memory is off">
      <p>
        <strong>Memory is off.</strong> Gateways get no memories: injectMemory and retrieve find none, so requests go on unchanged, and
        extractFacts stores nothing.
      </p>
      <button type="button" className="small" disabled={save.isPending} onClick={() => save.mutate({ input: { enabled: true } })}>
        {save.isPending ? 'Turning memory on…' : 'Turn memory on'}
      </button>
      <ErrorNote error={save.error} prefix="Memory is still off" />
    </section>
  );
}
