import { type FormEvent, useState } from 'react';
import { ViewerDocument, type ViewerQuery } from './generated/graphql';
import { ServerUnreachableError } from './lib/connection';
import { fetcher, GraphQLRequestError } from './lib/fetcher';
import { lastSignOutReason, setToken } from './lib/session';

/**
 * Paste a token; the server says whose it is before the app opens (a gateway token is refused here, not by every tab
 * later), and it is kept for this browser session only.
 */
export function SignIn() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(lastSignOutReason());
  const [checking, setChecking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const token = value.trim();
    if (!token) return setError('Paste an admin token first.');
    setChecking(true);
    setError(null);
    try {
      const { viewer } = await fetcher<ViewerQuery, Record<string, never>>(ViewerDocument, {}, { authorization: `Bearer ${token}` })();
      if (viewer.role === 'ADMIN') setToken(token);
      else
        setError(
          `This is a gateway token${viewer.apiKeyId ? ` (bound to the API key ${viewer.apiKeyId})` : ''}; Memory Studio needs an admin token.`,
        );
    } catch (e) {
      setError(describe(e));
    } finally {
      setChecking(false);
    }
  }

  return (
    <main className="signin">
      <form className="card signin-card" onSubmit={submit} aria-labelledby="signin-title">
        <div className="brand large">
          <span className="logo" aria-hidden="true" /> mnemo
        </div>
        <h1 id="signin-title">Sign in to Memory Studio</h1>
        <p className="muted">
          Paste the admin token that <code>mnemo serve</code> printed on first start, or one minted with{' '}
          <code>mnemo token create --admin</code>.
        </p>
        <label className="field">
          <span>Admin token</span>
          <input
            type="password"
            autoComplete="off"
            // biome-ignore lint/a11y/noAutofocus: the sign-in screen holds this one field and nothing else to do.
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="mnemo_…"
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function describe(error: unknown): string {
  if (error instanceof GraphQLRequestError) return error.code === 'UNAUTHENTICATED' ? 'That token is unknown or revoked.' : error.message;
  if (error instanceof ServerUnreachableError) return 'The server could not be reached.';
  return String(error);
}
