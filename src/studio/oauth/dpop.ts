import { hash } from 'node:crypto';
import type { AsymmetricSigningAlgorithm } from 'oidc-provider';
import type { TokenPresentation } from '../../core/auth.ts';
import { ApiError } from '../../core/errors.ts';
import { headerText } from '../../core/headers.ts';

/**
 * The algorithms a DPoP proof may be signed with, at the token endpoint and at the resources
 * alike (the authorization server is configured with this list): asymmetric only (RFC 9449
 * section 11.6), the ones oidc-provider offers by default.
 */
export const DPOP_ALGS: AsymmetricSigningAlgorithm[] = ['ES256', 'Ed25519', 'EdDSA'];

/**
 * How far a proof's `iat` may be from now, either way. No nonces are issued, so this window is
 * the proofs' only freshness bound; it is the one the authorization server applies at its token
 * endpoint, so that a client whose proofs it takes is not refused by the resources.
 */
export const DPOP_WINDOW_S = 300;

/** The error a `DPoP` challenge carries (RFC 9449 section 7.1). */
export type DpopChallengeError = 'invalid_token' | 'invalid_dpop_proof';

/**
 * A refusal about DPoP: answered 401 `invalid_api_key` in the envelope, and with a `DPoP`
 * challenge naming the error in `WWW-Authenticate`, which is what clients read.
 */
export class DpopRefusal extends ApiError {
  readonly challengeError: DpopChallengeError;

  constructor(challengeError: DpopChallengeError, message: string) {
    super('invalid_api_key', message);
    this.challengeError = challengeError;
  }
}

/** What a valid proof says that the replay check needs. */
export interface CheckedProof {
  jti: string;
  iat: number;
}

const bad = (message: string) => new DpopRefusal('invalid_dpop_proof', `The DPoP proof ${message}.`);

let jose: Promise<typeof import('jose')> | undefined;

/**
 * Checks that a presentation honours a token's binding (RFC 9449 section 7): a token bound to a
 * key (`cnf.jkt`) comes with the `DPoP` scheme and a proof for this very request, signed by that
 * key; a token bound to nothing comes as Bearer. Answers the proof's `jti` and `iat` for the
 * replay check, which the caller makes once everything else holds.
 */
export async function checkBinding(
  jkt: string | undefined,
  presented: TokenPresentation,
  nowMs: number,
): Promise<CheckedProof | undefined> {
  if (jkt === undefined) {
    if (presented.scheme === 'dpop') {
      throw new DpopRefusal(
        'invalid_token',
        'This access token is not bound to a DPoP key: send it as "Authorization: Bearer <token>".',
      );
    }
    return undefined;
  }
  if (presented.scheme !== 'dpop') {
    throw new DpopRefusal(
      'invalid_token',
      'This access token is bound to a DPoP key: send it as "Authorization: DPoP <token>" with a DPoP proof header (RFC 9449).',
    );
  }
  const proof = headerText(presented.proof);
  if (!proof) throw bad('header is missing: every request with a DPoP-bound token carries a fresh proof');
  jose ??= import('jose');
  const { jwtVerify, EmbeddedJWK, calculateJwkThumbprint, errors } = await jose;
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: DPOP_ALGS,
      requiredClaims: ['jti', 'htm', 'htu', 'iat'],
      currentDate: new Date(nowMs),
    });
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed) throw bad('signature does not verify');
    if (err instanceof errors.JOSEError) throw bad(`is not valid: ${err.message}`);
    throw err;
  }
  const { payload, protectedHeader } = verified;
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256) {
    throw bad('needs a jti: a unique string of at most 256 characters');
  }
  const iat = payload.iat as number;
  if (Math.abs(nowMs / 1000 - iat) > DPOP_WINDOW_S) {
    throw bad(`iat is more than ${DPOP_WINDOW_S} s from now: make a new proof for every request`);
  }
  if (payload.htm !== presented.method) throw bad(`htm is ${String(payload.htm)}; this request is ${presented.method}`);
  if (!sameAddress(payload.htu, presented.url)) throw bad(`htu is not ${presented.url}`);
  if (payload.ath !== hash('sha256', presented.token, 'base64url')) {
    throw bad('ath is not the hash of the access token it came with');
  }
  if ((await calculateJwkThumbprint(protectedHeader.jwk ?? {})) !== jkt) {
    throw bad('is signed by another key than the one the access token is bound to');
  }
  return { jti: payload.jti, iat };
}

/** htu against the request's address, its query and fragment ignored (RFC 9449 section 4.3). */
function sameAddress(htu: unknown, url: string): boolean {
  if (typeof htu !== 'string') return false;
  const sent = URL.parse(htu);
  if (!sent) return false;
  sent.search = '';
  sent.hash = '';
  return sent.href === URL.parse(url)?.href;
}
