/** A creator's studio password: an argon2id hash (PHC string), never the password. */
export interface CreatorPasswordsTable {
  creator_id: string;
  password_hash: string;
  updated_at: number;
}

/** A signed-in browser. The cookie holds the token; only its SHA-256 is stored. */
export interface StudioSessionsTable {
  id_hash: string;
  creator_id: string;
  created_at: number;
  last_seen_at: number;
  /** Idle expiry, pushed on when the session is used; never past created_at + the absolute lifetime. */
  expires_at: number;
}

/** A password reset (or first password) link: single use, short-lived, stored as a hash. */
export interface PasswordResetsTable {
  token_hash: string;
  creator_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Each version of the creator agreement; the highest number is the current one. */
export interface AgreementVersionsTable {
  version: number;
  title: string;
  body: string;
  published_at: number;
}

/** Who accepted which version, and when. creators.agreement_accepted says whether it is the current one. */
export interface AgreementAcceptancesTable {
  creator_id: string;
  version: number;
  accepted_at: number;
}

/** The address a creator confirmed by opening a mailed link; an address changed since is not confirmed. */
export interface ConfirmedEmailsTable {
  creator_id: string;
  email: string;
  confirmed_at: number;
}

/** A link that confirms an address: stored as a hash, for the address it was mailed to. */
export interface EmailConfirmationsTable {
  token_hash: string;
  creator_id: string;
  email: string;
  created_at: number;
  expires_at: number;
}

declare module '../db/tables.ts' {
  interface Database {
    creator_passwords: CreatorPasswordsTable;
    studio_sessions: StudioSessionsTable;
    password_resets: PasswordResetsTable;
    agreement_versions: AgreementVersionsTable;
    agreement_acceptances: AgreementAcceptancesTable;
    confirmed_emails: ConfirmedEmailsTable;
    email_confirmations: EmailConfirmationsTable;
  }
}
