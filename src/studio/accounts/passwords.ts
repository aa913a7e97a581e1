/** The argon2 binding, loaded by the first password hashed or checked, not by the start. */
const argon2 = () => import('@node-rs/argon2');

/** argon2id: Algorithm.Argon2id, a const enum that type stripping cannot read. */
const ARGON2ID = 2;

/** What a password must be: long enough to resist guessing, short enough that hashing stays cheap. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** argon2id at the library's defaults (19 MiB, 2 passes: OWASP's first recommendation), as a PHC string. */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, { algorithm: ARGON2ID });
}

/**
 * Checked against a hash of no account when the email is unknown, so that a sign-in takes the same
 * time whether or not the address has an account.
 */
let decoy: Promise<string> | undefined;

export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  const { verify } = await argon2();
  if (stored === undefined) {
    decoy ??= hashPassword('decoy password of no account');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** Why a new password is refused, or undefined when it will do. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `Choose a password of at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Choose a password of at most ${PASSWORD_MAX} characters.`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'Choose a password other than your email.';
  return undefined;
}
