import { ServerUnreachableError } from '../lib/connection';
import { GraphQLRequestError } from '../lib/fetcher';

/**
 * How every panel shows a failed request: what the server said, with its code. A request that reached no server
 * shows nothing here: the app's one banner says so (App.tsx), instead of every panel repeating it.
 */
export function ErrorNote({ error, prefix }: { error: unknown; prefix?: string }) {
  if (!error || error instanceof ServerUnreachableError) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof GraphQLRequestError ? error.code : null;
  return (
    <p role="alert" className="error">
      {prefix ? `${prefix}: ` : ''}
      {message}
      {code && code !== 'INTERNAL_SERVER_ERROR' ? <span className="code"> {code}</span> : null}
    </p>
  );
}
