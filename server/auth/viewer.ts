import { badInput, forbidden } from '../errors.ts';
import { normaliseIdentifier } from '../validation.ts';

/** Who is calling: an admin, or a gateway token that may be bound to one API key. */
export type Viewer =
  | { role: 'admin'; tokenId: string | null; apiKeyId: null }
  | { role: 'gateway'; tokenId: string; apiKeyId: string | null; mayForgetKey: boolean };

/** Whether the viewer may read or write memories of this API key. */
export function mayUseKey(viewer: Viewer, apiKeyId: string): boolean {
  return viewer.apiKeyId === null || viewer.apiKeyId === apiKeyId;
}

/**
 * Whether the viewer may erase every trace of this key: admins may; a gateway token only when it is bound to this key
 * and the admin allowed it when minting it.
 */
export function mayForgetKey(viewer: Viewer, apiKeyId: string): boolean {
  return viewer.role === 'admin' || (viewer.apiKeyId === apiKeyId && viewer.mayForgetKey);
}

/**
 * The API key an operation acts on. A bound token acts on its own key; naming another one is
 * FORBIDDEN, never silently rewritten.
 */
export function exactlyOneKey(viewer: Viewer, requested: string | null | undefined): string {
  // Keys are stored normalised, so reads, writes and the bound-key check all compare normalised keys.
  const named = requested == null ? requested : normaliseIdentifier(requested);
  if (named != null && !mayUseKey(viewer, named)) throw forbiddenKey(named);
  const key = named ?? viewer.apiKeyId;
  if (key == null) throw badInput('apiKeyId is required');
  return key;
}

/**
 * The API key one row of a batch is written to: the one it names, else the token's own. '' when neither names one,
 * which that row's validation refuses without failing the others; a key the viewer may not use is the caller's to
 * refuse, row by row.
 */
export function keyOfRow(viewer: Viewer, named: string | null | undefined): string {
  return named ?? viewer.apiKeyId ?? '';
}

/**
 * The API key a read is confined to, or null for every key. Only admins may read across keys;
 * an unbound gateway token must name the key it reads.
 */
export function oneKeyOrAll(viewer: Viewer, requested: string | null | undefined): string | null {
  if (viewer.role === 'admin') return requested == null ? null : normaliseIdentifier(requested);
  return exactlyOneKey(viewer, requested);
}

/**
 * The key of a read only its own gateway may make (the injection log, which holds what its users asked): an admin
 * reads any key, a gateway token only the key it is bound to; an unbound one none.
 */
export function boundKeyOnly(viewer: Viewer, requested: string): string {
  const key = exactlyOneKey(viewer, requested);
  if (viewer.role === 'gateway' && viewer.apiKeyId === null)
    throw forbidden(`only admins and tokens bound to API key "${key}" may read what it was asked`);
  return key;
}

function forbiddenKey(apiKeyId: string) {
  return forbidden(`this token is bound to another API key and may not use "${apiKeyId}"`);
}
