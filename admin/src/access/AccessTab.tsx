import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyButton } from '../components/CopyButton';
import { ErrorNote } from '../components/ErrorNote';
import {
  type AccessTokensQuery,
  type TokenRole,
  useAccessTokensQuery,
  useCreateAccessTokenMutation,
  useRevokeAccessTokenMutation,
} from '../generated/graphql';

type Token = AccessTokensQuery['accessTokens'][number];

/** Access tokens for gateways and admins: mint (shown once), list, revoke. */
export function AccessTab() {
  const [showRevoked, setShowRevoked] = useState(false);
  const tokens = useAccessTokensQuery({ includeRevoked: showRevoked });
  return (
    <>
      <MintToken />
      <section className="card" aria-labelledby="tokens-title">
        <div className="row">
          <h2 id="tokens-title">Access tokens</h2>
          <span className="spacer" />
          <label className="switch">
            <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} />
            <span>Show revoked</span>
          </label>
        </div>
        {tokens.isPending ? (
          <p className="muted">Loading tokens…</p>
        ) : tokens.error || !tokens.data ? (
          <ErrorNote error={tokens.error} prefix="Tokens could not be loaded" />
        ) : tokens.data.accessTokens.length === 0 ? (
          <p className="muted">No tokens yet. Mint one above for each gateway.</p>
        ) : (
          <TokenTable tokens={tokens.data.accessTokens} />
        )}
      </section>
    </>
  );
}

function MintToken() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<TokenRole>('GATEWAY');
  const [apiKeyId, setApiKeyId] = useState('');
  const mint = useCreateAccessTokenMutation({
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['AccessTokens'] }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return;
    mint.mutate({ input: { name: name.trim(), role, apiKeyId: role === 'GATEWAY' && apiKeyId.trim() ? apiKeyId.trim() : null } });
  }

  const minted = mint.data?.createAccessToken;
  return (
    <form className="card" onSubmit={submit} aria-labelledby="mint-title">
      <h2 id="mint-title">Mint a token</h2>
      <div className="row">
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="gateway-eu-1" required />
        </label>
        <label className="field">
          <span>Role</span>
          <select value={role} onChange={(e) => setRole(e.target.value as TokenRole)}>
            <option value="GATEWAY">Gateway (memories only)</option>
            <option value="ADMIN">Admin (everything)</option>
          </select>
        </label>
        <label className="field">
          <span>Bound API key (optional)</span>
          <input value={apiKeyId} disabled={role === 'ADMIN'} onChange={(e) => setApiKeyId(e.target.value)} placeholder="any key" />
        </label>
        <button type="submit" className="primary" disabled={!name.trim() || mint.isPending}>
          {mint.isPending ? 'Minting…' : 'Mint token'}
        </button>
      </div>
      <ErrorNote error={mint.error} prefix="Not minted" />
      {minted && (
        <div className="warning" role="status" aria-label="New token">
          <p>
            <strong>{minted.accessToken.name}</strong>: copy this token now. It is shown only once and cannot be recovered.
          </p>
          <div className="row">
            <code className="mono" data-testid="minted-token">
              {minted.token}
            </code>
            <CopyButton text={minted.token} />
          </div>
        </div>
      )}
    </form>
  );
}

function TokenTable({ tokens }: { tokens: Token[] }) {
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<Token | null>(null);
  const revoke = useRevokeAccessTokenMutation({
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: ['AccessTokens'] });
    },
  });
  return (
    <>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Role</th>
            <th>API key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>State</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <span className={t.role === 'ADMIN' ? 'badge warn' : 'badge'}>{t.role.toLowerCase()}</span>
              </td>
              <td className="mono">{t.apiKeyId ?? <span className="muted">any</span>}</td>
              <td>{formatDate(t.createdAt)}</td>
              <td>{t.lastUsedAt ? formatDate(t.lastUsedAt) : <span className="muted">never</span>}</td>
              <td>{t.revokedAt ? <span className="badge danger">revoked</span> : <span className="badge ok">active</span>}</td>
              <td>
                {!t.revokedAt && (
                  <button type="button" className="small danger" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this token?"
        confirmLabel="Revoke"
        danger
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Gateways using <strong>{revoking?.name}</strong> are refused from the next request on.
        </p>
        <ErrorNote error={revoke.error} />
      </ConfirmDialog>
    </>
  );
}

const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
