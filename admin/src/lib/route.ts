/**
 * The app's place lives in the URL hash, so a reload or a shared link opens the same view: "#/memories?page=3&size=50"
 * is the Memories tab on page 3 of 50 rows.
 */

export function hashPath(): string {
  return window.location.hash.replace(/^#\/?/, '').split('?')[0] ?? '';
}

export function hashParams(): URLSearchParams {
  return new URLSearchParams(window.location.hash.split('?')[1] ?? '');
}

/** Rewrites the hash's parameters in place: no history entry, no hashchange (the view already shows them). */
export function replaceHashParams(params: Record<string, string | null>) {
  const next = hashParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  const query = next.toString();
  window.history.replaceState(window.history.state, '', `#/${hashPath()}${query ? `?${query}` : ''}`);
}
