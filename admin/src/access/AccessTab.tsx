import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyButton } from '../components/CopyButton';
import { DraftField } from '../components/DraftField';
import { ErrorNote } from '../components/ErrorNote';
import { formatTime } from '../components/format';
import { SaveActions } from '../components/SaveActions';
import { ScrollRegion } from '../components/ScrollRegion';
import { TableHead } from '../components/TableHead';
import {
  type AccessTokensQuery,
  type TokenRole,
  useAccessTokensQuery,
  useCreateAccessTokenMutation,
  useRevokeAccessTokenMutation,
} from '../generated/graphql';
import { useDraftForm } from '../lib/useDraftForm';

type Token = AccessTokensQuery['accessTokens'][number];

/** Access tokens for gateways and admins: mint (shown once), list, revoke. */
export function AccessTab() {
  const [showRevoked, setShowRevoked] = useState(false);
  const tokens = useAccessTokensQuery({ includeRevoked: showRevoked });
  // Names in use, for the warning on a duplicate: revoked tokens' names do not count.
  const active = useAccessTokensQuery({ includeRevoked: false });
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Access</h1>
          <p className="muted">The tokens that may call mnemo: gateways (memories only, optionally one API key) and admins.</p>
        </div>
      </div>
      <MintToken active={active.data?.accessTokens ?? []} />
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
        ) : (
          <TokenTable tokens={tokens.data.accessTokens} />
        )}
      </section>
    </>
  );
}

interface MintDraft {
  name: string;
  role: TokenRole;
  apiKeyId: string;
}

function MintToken({ active }: { active: readonly Token[] }) {
  const queryClient = useQueryClient();
  const mint = useCreateAccessTokenMutation({
    onSuccess: () => {
      form.saved();
      void queryClient.invalidateQueries({ queryKey: ['AccessTokens'] });
    },
  });
  const form = useDraftForm<MintDraft>({
    keep: 'access/mint',
    source: { name: '', role: 'GATEWAY', apiKeyId: '' },
    error: mint.error,
    onEdit: mint.reset,
    check: (d) => ({ name: d.name.trim() === '' ? 'Give the token a name.' : undefined }),
    onSubmit: (d) =>
      mint.mutate({
        input: { name: d.name.trim(), role: d.role, apiKeyId: d.role === 'GATEWAY' && d.apiKeyId.trim() ? d.apiKeyId.trim() : null },
      }),
  });
  const draft = form.draft!;
  const edit = form.edit;
  const namesake = active.filter((t) => t.name === draft.name.trim());
  const minted = mint.data?.createAccessToken;

  return (
    <form className="card" onSubmit={form.submit} aria-labelledby="mint-title" noValidate>
      <h2 id="mint-title">Mint a token</h2>
      <div className="row">
        <DraftField form={form} name="name" label="Name" placeholder="gateway-eu-1" />
        <label className="field">
          <span>Role</span>
          <select value={draft.role} onChange={(e) => edit({ role: e.target.value as TokenRole })}>
            <option value="GATEWAY">Gateway (memories only)</option>
            <option value="ADMIN">Admin (everything)</option>
          </select>
        </label>
        <DraftField
          form={form}
          name="apiKeyId"
          label="Bound API key (optional)"
          apiKey
          disabled={draft.role === 'ADMIN'}
          placeholder="any key"
        />
      </div>
      {namesake.length > 0 && (
        <p className="warning" role="note">
          {namesake.length === 1 ? 'A token' : `${namesake.length} tokens`} named “{draft.name.trim()}” already{' '}
          {namesake.length === 1 ? 'exists' : 'exist'} ({namesake.map((t) => describeToken(t)).join('; ')}). Another one of the same name
          can only be told apart by its id and first characters: a name of its own is safer.
        </p>
      )}
      <SaveActions save={mint} form={form} label="Mint token" savedText="Minted" />
      {minted && (
        <div className="warning" role="status" aria-label="New token">
          <p>
            <strong>{minted.accessToken.name}</strong>: copy this token now. It is shown only once and cannot be recovered.
          </p>
          <div className="row">
            <code className="mono minted" data-testid="minted-token">
              {minted.token}
            </code>
            <CopyButton text={minted.token} />
          </div>
        </div>
      )}
    </form>
  );
}

/** "starts mnemo_Ab3x…, id 1f2e3d4c": what tells two tokens apart, since the secret itself is never shown again. */
function describeToken(t: Token): string {
  return `${t.tokenStart ? `starts ${t.tokenStart}…, ` : ''}id ${t.id.slice(0, 8)}`;
}

function TokenTable({ tokens }: { tokens: Token[] }) {
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<Token | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const revoke = useRevokeAccessTokenMutation({
    onSuccess: async () => {
      setRevoked(`Revoked “${revoking?.name}” (${revoking ? describeToken(revoking) : ''}): requests with it are refused from now on.`);
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: ['AccessTokens'] });
    },
  });
  // The row goes with its Revoke button: once the dialog has closed (its effect runs first), the focus goes to the
  // message that says what happened.
  useEffect(() => {
    if (revoked) statusRef.current?.focus();
  }, [revoked]);
  const count = new Map<string, number>();
  for (const t of tokens) if (!t.revokedAt) count.set(t.name, (count.get(t.name) ?? 0) + 1);

  return (
    <>
      <p ref={statusRef} tabIndex={-1} role="status" className={revoked ? 'ok revoked-note' : 'sr-only'}>
        {revoked}
      </p>
      {tokens.length === 0 ? (
        <p className="muted">No tokens yet. Mint one above for each gateway.</p>
      ) : (
        <ScrollRegion label="Access tokens table">
          <table className="tokens">
            <TableHead columns={['Name', 'Token', 'Role', 'API key', 'Created', 'Last used', 'State']} controls="Actions" />
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td>
                    {t.name}
                    {!t.revokedAt && (count.get(t.name) ?? 0) > 1 && (
                      <span
                        className="badge warn same-name"
                        title="Another active token has this name: tell them apart by id and first characters"
                      >
                        same name
                      </span>
                    )}
                  </td>
                  <td className="mono nowrap">
                    {t.tokenStart ? `${t.tokenStart}…` : <span className="muted">—</span>}
                    <div className="muted small-note" title={t.id}>
                      id {t.id.slice(0, 8)}
                    </div>
                  </td>
                  <td>
                    <span className={t.role === 'ADMIN' ? 'badge warn' : 'badge'}>{t.role.toLowerCase()}</span>
                  </td>
                  <td className="mono">{t.apiKeyId ?? <span className="muted">any</span>}</td>
                  <td className="nowrap">{formatTime(t.createdAt)}</td>
                  <td className="nowrap">{t.lastUsedAt ? formatTime(t.lastUsedAt) : <span className="muted">never</span>}</td>
                  <td>{t.revokedAt ? <span className="badge danger">revoked</span> : <span className="badge ok">active</span>}</td>
                  <td>
                    {!t.revokedAt && (
                      <button
                        type="button"
                        className="small danger"
                        onClick={() => {
                          revoke.reset();
                          setRevoking(t);
                        }}
                        aria-label={`Revoke ${t.name} (id ${t.id.slice(0, 8)})`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this token?"
        confirmLabel="Revoke"
        busyLabel="Revoking…"
        danger
        busy={revoke.isPending}
        error={<ErrorNote error={revoke.error} prefix="Not revoked" />}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onCancel={() => setRevoking(null)}
      >
        {revoking && (
          <>
            <p>
              Gateways using <strong>{revoking.name}</strong> are refused from the next request on.
            </p>
            <dl className="kv compact">
              <dt>Token</dt>
              <dd className="mono">{revoking.tokenStart ? `${revoking.tokenStart}…` : 'minted before first characters were kept'}</dd>
              <dt>Id</dt>
              <dd className="mono">{revoking.id}</dd>
              <dt>API key</dt>
              <dd>{revoking.apiKeyId ?? 'any'}</dd>
              <dt>Last used</dt>
              <dd>{revoking.lastUsedAt ? formatTime(revoking.lastUsedAt) : 'never'}</dd>
            </dl>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
