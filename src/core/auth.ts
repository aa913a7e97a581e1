import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.ts';
import { type HeaderValue, headerText } from './headers.ts';

export type KeyScope = 'read' | 'write';
export type Role = 'owner' | 'editor';
export type OperationScope = 'read' | 'write' | 'publish';

/** Who is calling: the key and the creator account it acts for. */
export interface Principal {
  keyId: string;
  creatorId: string;
  scope: KeyScope;
  publish: boolean;
  role: Role;
  /**
   * The signed-in creator acting in the studio, not a key or an assistant: the history names the
   * studio as who (its `keyId` only counts the studio's calls for the rate limits).
   */
  studio?: true;
}

/**
 * The studio acting for its signed-in creator: writes as the creator may, publishing aside. Its
 * `keyId` names the session (the hash of its cookie's token, as the store keeps it), so what its
 * calls make (download addresses) ends when that session is signed out or runs out.
 */
export function studioPrincipal(creatorId: string, session: string): Principal {
  return {
    keyId: `${STUDIO_KEY_PREFIX}${session}`,
    creatorId,
    scope: 'write',
    publish: false,
    role: 'owner',
    studio: true,
  };
}

/** What a studio session's `keyId` begins with (credentialWorks reads the session after it). */
export const STUDIO_KEY_PREFIX = 'studio_';

const KEY_PREFIX = 'sk_service_';

/** 192 bits of randomness; only the hash is stored. */
export function generateKey(): { key: string; hash: string; hint: string } {
  const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { key, hash: hashKey(key), hint: key.slice(-4) };
}

/** A fast hash is right here: keys carry enough entropy that guessing is hopeless. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** How a credential came: `Bearer` (keys and plain tokens) or `DPoP` (a token bound to a key, RFC 9449). */
export type CredentialScheme = 'bearer' | 'dpop';

export interface Credential {
  value: string;
  scheme: CredentialScheme;
}

/** An access token as a request presented it, with what a DPoP proof must match (RFC 9449). */
export interface TokenPresentation {
  token: string;
  scheme: CredentialScheme;
  /** The `DPoP` header as sent. */
  proof: HeaderValue;
  method: string;
  /** The request's address as the client named it: the public address and the path, no query. */
  url: string;
}

/**
 * Reads the credential from `Authorization: Bearer` (or `DPoP`) or `X-Api-Key`; refuses two
 * different ones.
 */
export function extractCredential(headers: { authorization?: HeaderValue; 'x-api-key'?: HeaderValue }): Credential {
  const authorization = headerText(headers.authorization);
  const apiKey = headerText(headers['x-api-key']);
  let fromAuthorization: Credential | undefined;
  if (authorization !== undefined && authorization !== '') fromAuthorization = authorizationCredential(authorization);
  if (fromAuthorization && apiKey && fromAuthorization.value !== apiKey) {
    throw new ApiError(
      'invalid_argument',
      'Authorization and X-Api-Key carry different keys: send one key, in one header.',
    );
  }
  const credential = fromAuthorization ?? (apiKey ? { value: apiKey, scheme: 'bearer' as const } : undefined);
  if (!credential) {
    throw new ApiError(
      'unauthenticated',
      'Send an API key as "Authorization: Bearer <API_KEY>" or "X-Api-Key: <API_KEY>".',
    );
  }
  return credential;
}

/** The credential of an Authorization header: `Bearer` or `DPoP`, any case, then the credential. */
function authorizationCredential(authorization: string): Credential {
  // The form nearly every client sends (one space, no whitespace after it), as the expression below
  // takes it, without running it and making its match array on every call.
  if (authorization.startsWith('Bearer ')) {
    const value = authorization.slice(7);
    if (value !== '' && !/\s/.test(value)) return { value, scheme: 'bearer' };
  }
  const match = /^(Bearer|DPoP)\s+(\S+)$/i.exec(authorization);
  if (!match) {
    throw new ApiError('unauthenticated', 'The Authorization header must read "Bearer <API_KEY>".');
  }
  return { value: match[2] as string, scheme: match[1]?.toLowerCase() === 'dpop' ? 'dpop' : 'bearer' };
}

export function looksLikeKey(key: string): boolean {
  return key.startsWith(KEY_PREFIX) && key.length > KEY_PREFIX.length + 16;
}

/** The scope an operation needs against what the key holds. */
export function requireScope(principal: Principal, needed: OperationScope, operation: string): void {
  if (needed === 'read') return;
  if (principal.scope !== 'write') {
    throw new ApiError('api_scope_required', `${operation} needs a key with the write scope; this key is read-only.`);
  }
  if (needed === 'publish' && !principal.publish) {
    throw new ApiError(
      'api_scope_required',
      `${operation} needs a key with the publish option; create one in the studio (Settings, API keys).`,
    );
  }
}
