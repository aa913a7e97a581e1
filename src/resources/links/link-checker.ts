import type { Clock } from '../../core/clock.ts';
import { metered } from '../../core/work-meter.ts';
import { urlRefusal } from './address-guard.ts';
import {
  BlockedAddressError,
  fetchHop,
  GuardedAgent,
  type Resolver,
  type SocketOpener,
  UnknownNameError,
} from './safe-fetch.ts';

/**
 * - ok: the page answered 2xx (or a 3xx that is not a redirect) at the URL as written.
 * - redirected: it answered 2xx after one or more redirects; finalUrl is where it lives now.
 * - broken: a definite "no": an HTTP 4xx or 5xx, a name that does not exist, more than the
 *   allowed redirects, a redirect loop, a redirect without a usable Location, a malformed URL.
 * - blocked: not checked on purpose: the URL or a redirect leads to an internal, private or
 *   special address, a scheme other than http(s), credentials in the URL, or a refused port.
 * - error: no answer this time: a timeout, a refused or reset connection, a TLS failure, a DNS
 *   failure that may pass. Worth checking again later.
 */
export type LinkStatus = 'ok' | 'redirected' | 'broken' | 'blocked' | 'error';

export interface LinkCheckResult {
  url: string;
  status: LinkStatus;
  /** The last HTTP status received, null when no answer came. */
  httpStatus: number | null;
  /** The last URL requested or refused: after redirects, the one the check ended on. */
  finalUrl: string;
  /** ISO 8601, from the injected clock, when the check ended. */
  checkedAt: string;
  /** A short sentence for the creator when status is not ok or redirected; else null. */
  error: string | null;
}

export interface LinkCheckerOptions {
  clock: Clock;
  /** Resolves host names; the system resolver by default. */
  lookup?: Resolver;
  connectTimeoutMs?: number;
  /** Until the status line and headers arrive, per request. */
  headersTimeoutMs?: number;
  /** Between body chunks, per request. */
  bodyTimeoutMs?: number;
  /** One URL's whole check: every redirect hop and the GET after a refused HEAD. */
  totalTimeoutMs?: number;
  maxRedirects?: number;
  /** Body bytes read before the connection is dropped. */
  maxBodyBytes?: number;
  /** URLs of one batch checked at once. */
  concurrency?: number;
  /**
   * A batch starts no new URL after this long, so one call answers in bounded time (this plus one
   * URL's whole check at most); the URLs it did not reach are left out of its results.
   */
  batchTimeoutMs?: number;
  /** Connections to one origin at once, so a guide full of one site's links does not hammer it. */
  connectionsPerOrigin?: number;
  userAgent?: string;
  /** Test only: see GuardOptions.testOnlyLoopbackPorts in safe-fetch.ts. */
  testOnlyLoopbackPorts?: readonly number[];
  /** Test only: see GuardOptions.openSocket in safe-fetch.ts. */
  openSocket?: SocketOpener;
}

type Tuning = Required<Omit<LinkCheckerOptions, 'clock' | 'lookup' | 'testOnlyLoopbackPorts' | 'openSocket'>>;

export const linkCheckDefaults: Readonly<Tuning> = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  totalTimeoutMs: 20_000,
  maxRedirects: 5,
  maxBodyBytes: 64 * 1024,
  concurrency: 4,
  batchTimeoutMs: 40_000,
  connectionsPerOrigin: 2,
  userAgent: 'creator-api-link-check/1',
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** How one pass (HEAD or GET) over the redirect chain ended, before the clock stamps it. */
type Outcome = Omit<LinkCheckResult, 'url' | 'checkedAt'>;

const withoutFragment = (url: URL): string => url.href.replace(/#.*$/, '');

export class LinkChecker {
  private readonly agent: GuardedAgent;
  private readonly settings: Tuning;
  private readonly clock: Clock;

  constructor(options: LinkCheckerOptions) {
    const { clock, lookup, testOnlyLoopbackPorts, openSocket, ...tuning } = options;
    this.clock = clock;
    this.settings = { ...linkCheckDefaults, ...definedOnly(tuning) };
    this.agent = new GuardedAgent({ ...this.settings, lookup, testOnlyLoopbackPorts, openSocket });
  }

  /** Checks one URL; never throws: every failure is a result. */
  check(url: string): Promise<LinkCheckResult> {
    return metered(
      () => this.checkOnce(url),
      (sink) => sink.linkCheckStarted(),
      (sink, seconds, { value }) => sink.linkCheckEnded(value?.status ?? 'error', seconds),
    );
  }

  private async checkOnce(url: string): Promise<LinkCheckResult> {
    const signal = AbortSignal.timeout(this.settings.totalTimeoutMs);
    let outcome = await this.follow(url, 'HEAD', signal);
    // Many servers refuse or mishandle HEAD (405, 501, and also 403 or 404 from some frameworks):
    // a failed HEAD is confirmed with a GET before the link is called broken.
    if (outcome.httpStatus !== null && outcome.httpStatus >= 400 && !signal.aborted) {
      outcome = await this.follow(url, 'GET', signal);
    }
    return { url, ...outcome, checkedAt: new Date(this.clock.now()).toISOString() };
  }

  /**
   * Checks a batch, at most `concurrency` at once; results in the order given, repeats checked
   * once. URLs not started within `batchTimeoutMs` are left out: call again for those.
   */
  async checkAll(urls: readonly string[]): Promise<LinkCheckResult[]> {
    const unique = [...new Set(urls)];
    const results = new Map<string, LinkCheckResult>();
    const startBy = performance.now() + this.settings.batchTimeoutMs;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < unique.length && performance.now() < startBy) {
        const url = unique[next++] as string;
        results.set(url, await this.check(url));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, unique.length) }, worker));
    return urls.flatMap((url) => results.get(url) ?? []);
  }

  /** Closes pooled connections; checks in flight finish first. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private async follow(raw: string, method: 'HEAD' | 'GET', signal: AbortSignal): Promise<Outcome> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { status: 'broken', httpStatus: null, finalUrl: raw, error: 'This is not a valid URL.' };
    }
    const seen = new Set<string>();
    let httpStatus: number | null = null;
    for (let redirects = 0; ; redirects++) {
      const refusal = urlRefusal(url);
      if (refusal) return { status: 'blocked', httpStatus, finalUrl: url.href, error: refusal };
      seen.add(withoutFragment(url));
      let answer: Awaited<ReturnType<typeof fetchHop>>;
      try {
        answer = await fetchHop(this.agent, { url, method, signal, ...this.settings });
      } catch (err) {
        return { ...this.failure(err, signal), httpStatus, finalUrl: url.href };
      }
      httpStatus = answer.status;
      if (!redirectStatuses.has(answer.status)) {
        if (answer.status >= 400) {
          return { status: 'broken', httpStatus, finalUrl: url.href, error: `The page answered HTTP ${httpStatus}.` };
        }
        return { status: redirects === 0 ? 'ok' : 'redirected', httpStatus, finalUrl: url.href, error: null };
      }
      const broken = (error: string): Outcome => ({ status: 'broken', httpStatus, finalUrl: url.href, error });
      if (answer.location === null) return broken('The page redirects without saying where to.');
      let target: URL;
      try {
        target = new URL(answer.location, url);
      } catch {
        return broken('The page redirects to an invalid URL.');
      }
      if (seen.has(withoutFragment(target))) return broken('The page redirects in a loop.');
      if (redirects === this.settings.maxRedirects) {
        return broken(`The page redirects more than ${this.settings.maxRedirects} times.`);
      }
      url = target;
    }
  }

  private failure(err: unknown, signal: AbortSignal): Pick<Outcome, 'status' | 'error'> {
    if (err instanceof BlockedAddressError) return { status: 'blocked', error: err.message };
    if (err instanceof UnknownNameError) return { status: 'broken', error: err.message };
    const code = (err as { code?: string }).code;
    if (signal.aborted || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
      return { status: 'error', error: 'The page did not answer in time.' };
    }
    if (code === 'UND_ERR_BODY_TIMEOUT') return { status: 'error', error: 'The page stopped sending in mid-answer.' };
    if (code === 'ECONNREFUSED') return { status: 'error', error: 'The server refused the connection.' };
    if (code === 'EAI_AGAIN') return { status: 'error', error: 'The name could not be looked up just now.' };
    if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) {
      return { status: 'error', error: 'The secure connection failed (certificate or TLS).' };
    }
    return { status: 'error', error: `The connection failed${code ? ` (${code})` : ''}.` };
  }
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
