/**
 * The admin token lives in sessionStorage: it survives a reload but not the browser session, and never
 * reaches localStorage or a cookie.
 */
const KEY = 'mnemo.adminToken';
const listeners = new Set<() => void>();
let signOutReason: string | null = null;

export function getToken(): string | null {
  return sessionStorage.getItem(KEY);
}

/** Signing out with a reason (the server refused the token) shows that reason on the sign-in screen. */
export function setToken(token: string | null, reason: string | null = null) {
  if (token) sessionStorage.setItem(KEY, token);
  else sessionStorage.removeItem(KEY);
  signOutReason = token ? null : reason;
  for (const listener of listeners) listener();
}

export function lastSignOutReason(): string | null {
  return signOutReason;
}

export function onTokenChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
