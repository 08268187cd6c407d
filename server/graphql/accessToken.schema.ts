import { audited } from '../audit/audited.ts';
import { type AccessToken, createAccessToken, listAccessTokens, revokeAccessToken } from '../auth/accessToken.service.ts';
import type { Viewer } from '../auth/viewer.ts';
import { builder } from './builder.ts';

const TokenRoleEnum = builder.enumType('TokenRole', {
  values: {
    ADMIN: { value: 'admin', description: 'Everything, including settings and tokens.' },
    GATEWAY: { value: 'gateway', description: 'Memories only; bound tokens are confined to one API key.' },
  } as const,
});

const AccessTokenRef = builder.objectRef<AccessToken>('AccessToken').implement({
  description: 'A bearer token as stored: the secret itself is shown only once, when minted.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    role: t.expose('role', { type: TokenRoleEnum }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: 'The only API key this token may use, if bound.' }),
    mayForgetKey: t.exposeBoolean('mayForgetKey', { description: 'It may erase its API key with forgetApiKey.' }),
    tokenStart: t.exposeString('tokenStart', {
      nullable: true,
      description:
        'The secret\'s first characters (e.g. "mnemo_Ab3x"), to tell tokens apart; null for tokens minted before they were kept.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: 'The caller, as its token makes it.',
  fields: (t) => ({
    role: t.expose('role', { type: TokenRoleEnum }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: 'The only API key the token may use, if bound.' }),
  }),
});

const MintedTokenRef = builder.simpleObject('MintedToken', {
  fields: (t) => ({
    token: t.string({ description: 'The secret. Store it now: it cannot be shown again.' }),
    accessToken: t.field({ type: AccessTokenRef }),
  }),
});

const CreateAccessTokenInputRef = builder.inputType('CreateAccessTokenInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    role: t.field({ type: TokenRoleEnum, defaultValue: 'gateway' }),
    apiKeyId: t.string({ description: 'Bind a gateway token to this API key.' }),
    mayForgetKey: t.boolean({
      defaultValue: false,
      description: 'Let this bound gateway token erase its API key with forgetApiKey; refused for other tokens.',
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    description: "Who the request's token stands for; any valid token may ask (the admin app checks the role at sign-in).",
    resolve: (_root, _args, ctx) => ctx.viewer,
  }),
);

builder.queryField('accessTokens', (t) =>
  t.field({
    type: [AccessTokenRef],
    authScopes: { admin: true },
    args: { includeRevoked: t.arg.boolean({ defaultValue: false }) },
    resolve: (_root, args, ctx) => listAccessTokens(ctx.services, args.includeRevoked ?? false),
  }),
);

builder.mutationFields((t) => ({
  createAccessToken: t.field({
    type: MintedTokenRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateAccessTokenInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(
        ctx,
        {
          action: 'TOKEN_CREATE',
          target: { name: input.name, role: input.role ?? 'gateway' },
          describe: ({ accessToken: t }) => ({ target: { tokenId: t.id, name: t.name, role: t.role }, apiKeyId: t.apiKeyId }),
        },
        () => createAccessToken(ctx.services, input),
      ),
  }),
  revokeAccessToken: t.field({
    type: AccessTokenRef,
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) =>
      audited(
        ctx,
        { action: 'TOKEN_REVOKE', target: { tokenId: String(id) }, describe: (t) => ({ target: { name: t.name }, apiKeyId: t.apiKeyId }) },
        () => revokeAccessToken(ctx.services, String(id)),
      ),
  }),
}));
