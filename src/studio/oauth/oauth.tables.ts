/** What oidc-provider keeps (grants, codes, tokens, sessions, interactions, registered clients), by model and id. */
export interface OAuthRecordsTable {
  model: string;
  id: string;
  /** The model's payload as JSON. */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** Unix ms; null: no expiry. */
  expires_at: number | null;
  consumed_at: number | null;
}

/** Every authorization a creator granted an assistant: what the connected-assistants page lists. */
export interface AssistantAuthorizationsTable {
  grant_id: string;
  creator_id: string;
  client_id: string;
  client_name: string;
  /** Space-separated: read, write, publish. */
  scopes: string;
  resource: string;
  granted_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Secrets the authorization server keeps across restarts and instances: cookie keys, signing keys. */
export interface OAuthSecretsTable {
  name: string;
  value: string;
}

/** The DPoP proofs taken, so that none is taken twice (`id`: hash of the key's thumbprint and the jti). */
export interface DpopProofsTable {
  id: string;
  /** Unix ms (wall clock): when the proof's iat window closes and the row may go. */
  expires_at: number;
}

declare module '../../db/tables.ts' {
  interface Database {
    oauth_records: OAuthRecordsTable;
    assistant_authorizations: AssistantAuthorizationsTable;
    oauth_secrets: OAuthSecretsTable;
    dpop_proofs: DpopProofsTable;
  }
}
