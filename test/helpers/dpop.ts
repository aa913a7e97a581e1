import { hash } from 'node:crypto';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** The DPoP challenge every 401 of /mcp and /api/v1 ends with: the scheme is taken, with these algorithms. */
export const DPOP_CHALLENGE = 'DPoP algs="ES256 Ed25519 EdDSA"';

/** What a DPoP proof claims (RFC 9449 section 4.2); `iat` and `jti` are filled in when left out. */
export interface ProofClaims {
  htm: string;
  htu: string;
  ath?: string;
  iat?: number;
  jti?: string;
  [claim: string]: unknown;
}

/** The `ath` of a proof sent with an access token: its SHA-256, base64url. */
export function accessTokenHash(token: string): string {
  return hash('sha256', token, 'base64url');
}

/** A client's DPoP key, making proofs as a client does, or any way a test wants them wrong. */
export class DpopKey {
  readonly jwk: JWK;
  readonly thumbprint: string;
  private readonly privateKey: CryptoKey;

  private constructor(privateKey: CryptoKey, jwk: JWK, thumbprint: string) {
    this.privateKey = privateKey;
    this.jwk = jwk;
    this.thumbprint = thumbprint;
  }

  static async create(): Promise<DpopKey> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    return new DpopKey(privateKey, jwk, await calculateJwkThumbprint(jwk));
  }

  /**
   * A proof with these claims and header, signed by this key; `header` replaces what a client
   * sends (typ dpop+jwt, alg ES256, this key's public JWK), field by field.
   */
  proof(claims: ProofClaims, header: Record<string, unknown> = {}): Promise<string> {
    const payload = { iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID(), ...claims };
    return new SignJWT(payload)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: this.jwk, ...header })
      .sign(this.privateKey);
  }
}
