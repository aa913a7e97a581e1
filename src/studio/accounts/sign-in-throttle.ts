import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../../core/rate-limit.ts';

/** Failed sign-ins that cost no wait: per client address and account together, and per account. */
export const FREE_FAILURES = { pair: 5, account: 20 } as const;
/** The first wait after the free failures; each further failure doubles it, up to the longest. */
export const FIRST_WAIT_S = 60;
export const LONGEST_WAIT_S = { pair: 3600, account: 15 * 60 } as const;
/** Failures are counted for a day from the first of them. */
const FAILURES_KEPT_S = 24 * 3600;
/**
 * An address the account signed in from stays its usual one this long after the last sign-in
 * there (a memory limiter holds a key at most 24 days: Node's timers stop at 2^31 ms).
 */
const USUAL_ADDRESS_S = 14 * 24 * 3600;
/** The creator is told of an attack at most once a day. */
const WARNING_EVERY_S = 24 * 3600;

export interface SignInAttempt {
  address: string;
  /** The email as typed and normalised: an account's or nobody's, counted alike. */
  email: string;
}

type Scope = keyof typeof FREE_FAILURES;

const keyOf = (scope: Scope, a: SignInAttempt) => (scope === 'pair' ? `${a.address}|${a.email}` : a.email);

/** The wait a failure starts, in seconds: none for the free ones, then growing. */
function waitAfter(scope: Scope, failures: number): number {
  const beyond = failures - FREE_FAILURES[scope];
  return beyond <= 0 ? 0 : Math.min(FIRST_WAIT_S * 2 ** (beyond - 1), LONGEST_WAIT_S[scope]);
}

/** What is left of a stored wait or mark: a memory record can outlive its expiry until its timer runs. */
function msLeft(res: RateLimiterRes | null): number {
  return res && res.msBeforeNext > 0 ? res.msBeforeNext : 0;
}

/**
 * Failed studio sign-ins, counted per (client address, account) and per account, each with its
 * own growing wait once its free failures are spent (the rate-limiter-flexible pattern of a count
 * and a block whose length follows it). A guesser at one address waits longer and longer there
 * and nowhere else; guessing from many addresses makes the account wait too, except at the
 * addresses its creator signed in from. Accounts and unknown emails are counted alike, so the
 * answers tell nobody which emails have accounts. Kept where the API's limits are (memory, or
 * Redis shared by instances).
 */
export class SignInThrottle {
  private readonly failures: () => RateLimiterAbstract;
  private readonly waits: () => RateLimiterAbstract;
  private readonly usual: () => RateLimiterAbstract;
  private readonly warnings: () => RateLimiterAbstract;

  constructor(rateLimits: RateLimits) {
    // Only counted (penalty) and read, never consumed against: no limit of its own.
    this.failures = rateLimits.limiter('signin-failures', Number.MAX_SAFE_INTEGER, FAILURES_KEPT_S);
    this.waits = rateLimits.limiter('signin-waits', 1, LONGEST_WAIT_S.pair);
    this.usual = rateLimits.limiter('signin-usual', 1, USUAL_ADDRESS_S);
    this.warnings = rateLimits.limiter('signin-warned', 1, WARNING_EVERY_S);
  }

  /** How long this attempt must wait before its password is looked at, in ms (0: not at all). */
  async waitMs(attempt: SignInAttempt): Promise<number> {
    const [pair, account, usual] = await Promise.all([
      this.waits().get(keyOf('pair', attempt)),
      this.waits().get(keyOf('account', attempt)),
      this.usual().get(keyOf('pair', attempt)),
    ]);
    // The account's wait holds back other addresses only: the creator's usual one gets in.
    return Math.max(msLeft(pair), msLeft(usual) > 0 ? 0 : msLeft(account));
  }

  /**
   * Counts a failed sign-in; true when it started a wait (someone is guessing at the account).
   * The account counts only each address's free failures: past them that address's own growing
   * wait is the brake, so one address alone can never make the account wait.
   */
  async failed(attempt: SignInAttempt): Promise<boolean> {
    const pairFailures = (await this.failures().penalty(keyOf('pair', attempt))).consumedPoints;
    const accountFailures =
      pairFailures <= FREE_FAILURES.pair
        ? (await this.failures().penalty(keyOf('account', attempt))).consumedPoints
        : 0;
    let started = false;
    for (const [scope, failures] of [
      ['pair', pairFailures],
      ['account', accountFailures],
    ] as const) {
      const seconds = waitAfter(scope, failures);
      if (seconds > 0) {
        await this.waits().block(keyOf(scope, attempt), seconds);
        started = true;
      }
    }
    return started;
  }

  /** A sign-in that succeeded: its address starts afresh, and is one the creator uses. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const key = keyOf('pair', attempt);
    await Promise.all([
      this.failures().delete(key),
      this.waits().delete(key),
      this.usual().set(key, 1, USUAL_ADDRESS_S),
    ]);
  }

  /** Whether to tell the account's creator of the attack now: once a day at most. */
  async warnNow(email: string): Promise<boolean> {
    try {
      await this.warnings().consume(email);
      return true;
    } catch (err) {
      if (err instanceof Error) throw err;
      return false;
    }
  }
}
