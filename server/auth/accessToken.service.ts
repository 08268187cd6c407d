import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import type { AccessTokenRow } from '../db/schema.ts';
import { loggedFailure } from '../db/storeErrors.ts';
import { notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { apiKeyIdSchema, LIMITS, parseInput } from '../validation.ts';
import * as repo from './accessToken.repository.ts';
import { generateToken, hashToken, sameHash, tokenStart } from './tokenHash.ts';
import type { Viewer } from './viewer.ts';

export type TokenRole = 'admin' | 'gateway';

export interface AccessToken {
  id: string;
  name: string;
  role: TokenRole;
  apiKeyId: string | null;
  /** A token bound to apiKeyId that may erase that key with forgetApiKey. */
  mayForgetKey: boolean;
  /** The secret's first characters, e.g. "mnemo_Ab3x"; null for tokens minted before they were kept. */
  tokenStart: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface MintInput {
  name: string;
  role?: TokenRole | null;
  apiKeyId?: string | null;
  mayForgetKey?: boolean | null;
}

/** The secret in plain text (shown this once) and the token as stored. */
export interface MintedToken {
  token: string;
  accessToken: AccessToken;
}

const mintSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'name must not be empty')
      .max(LIMITS.tokenNameChars, `name is longer than ${LIMITS.tokenNameChars} characters`),
    role: z.enum(['admin', 'gateway']).default('gateway'),
    apiKeyId: apiKeyIdSchema.nullish(),
    mayForgetKey: z.boolean().nullish(),
  })
  // Admins may forget any key anyway; an unbound gateway token would be allowed to erase every key.
  .refine((t) => !t.mayForgetKey || (t.role === 'gateway' && t.apiKeyId != null), {
    message: 'mayForgetKey needs a gateway token bound to one API key (apiKeyId)',
    path: ['mayForgetKey'],
  });

const BEARER = /^Bearer\s+(\S+)$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined for any other header, or none. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return BEARER.exec(authorization ?? '')?.[1];
}

/** Why a request was not authenticated (no bearer token, or one that authenticate() refused), as every API says it. */
export function unauthenticatedMessage(token: string | undefined): string {
  return token ? 'the bearer token is unknown or revoked' : 'send Authorization: Bearer <token>';
}

/** Last-use times are written at most this often per token, so authentication stays read-only on the hot path. */
const TOUCH_INTERVAL_MS = 60_000;

function toAccessToken(row: AccessTokenRow): AccessToken {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    apiKeyId: row.api_key_id,
    mayForgetKey: row.may_forget_key === 1,
    tokenStart: row.token_start,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  };
}

/** MNEMO_ADMIN_TOKEN's least length (config.ts); minted tokens are longer. */
const MIN_TOKEN_CHARS = 16;

export class AccessTokenService {
  private readonly lastTouched = new Map<string, number>();
  private readonly envAdminHash: string | null;

  private readonly db: Db;
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(
    deps: { db: Db; now: () => number; logger: Logger },
    /** MNEMO_ADMIN_TOKEN: accepted as an admin token without being stored. */
    envAdminToken: string | null,
  ) {
    this.db = deps.db;
    this.now = deps.now;
    this.logger = deps.logger;
    this.envAdminHash = envAdminToken ? hashToken(envAdminToken) : null;
  }

  /** Mints a token; the plain text is returned this once and only its hash is kept. */
  async mint(input: MintInput): Promise<MintedToken> {
    const valid = parseInput(mintSchema, input);
    const token = generateToken();
    const row = await repo.insertAccessToken(this.db, {
      id: randomUUID(),
      name: valid.name,
      role: valid.role,
      token_hash: hashToken(token),
      // An admin token is never confined to one key.
      api_key_id: valid.role === 'admin' ? null : (valid.apiKeyId ?? null),
      may_forget_key: valid.mayForgetKey ? 1 : 0,
      token_start: tokenStart(token),
      created_at: this.now(),
      last_used_at: null,
      revoked_at: null,
    });
    return { token, accessToken: toAccessToken(row) };
  }

  async list(includeRevoked = false): Promise<AccessToken[]> {
    return (await repo.listAccessTokenRows(this.db, includeRevoked)).map(toAccessToken);
  }

  /** A token's name (revoked ones too), or null for an unknown id. */
  async nameOf(id: string): Promise<string | null> {
    return repo.findAccessTokenName(this.db, id);
  }

  async revoke(id: string): Promise<AccessToken> {
    const row = await repo.revokeAccessTokenRow(this.db, id, this.now());
    if (!row) throw notFound(`no active access token with id ${id}`);
    return toAccessToken(row);
  }

  /**
   * The first start without MNEMO_ADMIN_TOKEN and without any admin token mints one, so a fresh
   * install is never left open or locked. Returns the plain token to print once, or null.
   */
  async ensureAdminToken(): Promise<string | null> {
    if (this.envAdminHash || (await repo.countActiveAdminTokens(this.db)) > 0) return null;
    const { token } = await this.mint({ name: 'initial admin', role: 'admin' });
    return token;
  }

  /**
   * The tokens this mnemo issued (MNEMO_ADMIN_TOKEN, and minted ones, revoked too) that stand in a text as words,
   * so that nothing said in a conversation stores one, whatever its format.
   */
  async issuedTokensIn(text: string): Promise<string[]> {
    const words = new Set(
      text
        .split(/[\s"'`<>()[\]{},;]+/u)
        .map((w) => w.replace(/[.:!?]+$/u, ''))
        .filter((w) => w.length >= MIN_TOKEN_CHARS),
    );
    const byHash = new Map([...words].map((w) => [hashToken(w), w]));
    const issued = await repo.issuedTokenHashes(this.db, [...byHash.keys()]);
    if (this.envAdminHash && byHash.has(this.envAdminHash)) issued.push(this.envAdminHash);
    return issued.map((hash) => byHash.get(hash)!);
  }

  /** Resolves a bearer token to the caller it stands for, or null when it is unknown or revoked. */
  async authenticate(token: string): Promise<Viewer | null> {
    const hash = hashToken(token);
    if (this.envAdminHash && sameHash(hash, this.envAdminHash)) return { role: 'admin', tokenId: null, apiKeyId: null };
    const row = await repo.findActiveTokenByHash(this.db, hash);
    if (!row) return null;
    await this.touch(row.id);
    return row.role === 'admin'
      ? { role: 'admin', tokenId: row.id, apiKeyId: null }
      : { role: 'gateway', tokenId: row.id, apiKeyId: row.api_key_id, mayForgetKey: row.may_forget_key === 1 };
  }

  private async touch(id: string) {
    const now = this.now();
    if (now - (this.lastTouched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(id, now);
    // Bookkeeping: a request is not refused for want of it (on a full disk, say). The next try is a period away, so
    // this is logged once per period and token.
    await repo
      .touchAccessToken(this.db, id, now)
      .catch((err: unknown) =>
        this.logger.warn({ tokenId: id, ...loggedFailure(err) }, "could not write the token's last-used time; the request goes on"),
      );
  }
}

/* The token operations that resolvers and tools call; the class above also authenticates every request. */

export function listAccessTokens(deps: { tokens: AccessTokenService }, includeRevoked: boolean): Promise<AccessToken[]> {
  return deps.tokens.list(includeRevoked);
}

export function createAccessToken(deps: { tokens: AccessTokenService }, input: MintInput): Promise<MintedToken> {
  return deps.tokens.mint(input);
}

export function revokeAccessToken(deps: { tokens: AccessTokenService }, id: string): Promise<AccessToken> {
  return deps.tokens.revoke(id);
}
