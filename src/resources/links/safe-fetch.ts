import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { addressRefusal, classifyAddress } from './address-guard.ts';

/**
 * undici, loaded by the first link check or client metadata fetch, not by the start: most
 * processes never make an outgoing request.
 */
export const loadUndici = () => import('undici');

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has; injectable so tests never ask real DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

/** Opens the socket under the guard: undici's connector, or a test's stand-in that records calls. */
export type SocketOpener = buildConnector.connector;

/** The guard refused the address a URL leads to; the message is the report's sentence. */
export class BlockedAddressError extends Error {
  readonly code = 'LINK_ADDRESS_BLOCKED';
}

/** The name does not exist (NXDOMAIN), as opposed to a resolver that failed this time. */
export class UnknownNameError extends Error {
  readonly code = 'LINK_NAME_UNKNOWN';
}

export interface GuardOptions {
  lookup?: Resolver;
  connectTimeoutMs: number;
  /**
   * Test only: loopback addresses (127.0.0.0/8, ::1) on exactly these ports pass the guard, so
   * tests can serve links from 127.0.0.1. Nothing reads it from configuration or the environment:
   * production code never passes it (test/links/guard-allowance.test.ts holds src/ to that), and
   * it opens no other range, so even a mistaken caller exposes only the named local ports.
   */
  testOnlyLoopbackPorts?: readonly number[];
  /** Test only: replaces the socket opener, to prove a refused address never reaches it. */
  openSocket?: SocketOpener;
  /** Test only: certificates to trust beside the system's (a test's own TLS server). */
  testOnlyCa?: string;
}

function loopbackAllowance(ports: readonly number[] | undefined): ReadonlySet<number> {
  for (const port of ports ?? []) {
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new TypeError(`testOnlyLoopbackPorts takes port numbers; got ${String(port)}.`);
    }
  }
  return new Set(ports);
}

/** What every connection is checked against; the allowance is checked when the guard is made. */
interface ConnectionGuard {
  lookup: Resolver;
  loopbackPorts: ReadonlySet<number>;
  timeoutMs: number;
}

function connectionGuard(options: GuardOptions): ConnectionGuard {
  return {
    lookup: options.lookup ?? systemResolver,
    loopbackPorts: loopbackAllowance(options.testOnlyLoopbackPorts),
    timeoutMs: options.connectTimeoutMs,
  };
}

/** The resolver's answer, or a connect timeout: a stuck lookup would hold the origin's pool. */
async function resolve(hostname: string, lookup: Resolver, timeoutMs: number): Promise<ResolvedAddress[]> {
  const family = isIP(hostname);
  if (family !== 0) return [{ address: hostname, family }];
  const { ConnectTimeoutError } = (await loadUndici()).errors;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeoutError(`Looking up ${hostname} took too long.`)), timeoutMs);
  });
  try {
    return await Promise.race([lookup(hostname), timeout]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTFOUND') {
      throw new UnknownNameError(`The name ${hostname} does not exist.`);
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves the host once and checks every address it resolves to: one refused address refuses the
 * name, so a name cannot mix a public address with an internal one and hope for the second.
 * Returns the checked addresses; the caller connects to those and never resolves again, so a DNS
 * answer that changes between check and connect (rebinding) cannot slip through.
 */
export async function checkedAddresses(hostname: string, port: number, guard: ConnectionGuard): Promise<string[]> {
  const resolved = await resolve(hostname, guard.lookup, guard.timeoutMs);
  if (resolved.length === 0) throw new UnknownNameError(`The name ${hostname} has no address.`);
  for (const { address } of resolved) {
    const verdict = classifyAddress(address);
    if (verdict.allowed) continue;
    if (verdict.range === 'loopback' && guard.loopbackPorts.has(port)) continue;
    const shown = address === hostname ? address : `${hostname} (${address})`;
    throw new BlockedAddressError(addressRefusal(shown, verdict.reason));
  }
  return resolved.map((r) => r.address);
}

/**
 * A socket opener wrapped by the guard: every connection any request through the agent opens,
 * on the first URL or on a redirect hop, is checked here, after resolution, before a socket exists.
 */
function guardedConnector(guard: ConnectionGuard, open: SocketOpener): SocketOpener {
  return (target, callback) => {
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    checkedAddresses(target.hostname, port, guard).then(
      (addresses) => {
        // TLS keeps the name for SNI and certificate checks while the socket goes to the address.
        const servername = target.protocol === 'https:' && isIP(target.hostname) === 0 ? target.hostname : undefined;
        const attempt = (i: number, lastError: Error | null): void => {
          const address = addresses[i];
          if (address === undefined) {
            callback(lastError ?? new Error('No address to connect to.'), null);
            return;
          }
          open({ ...target, hostname: address, servername: target.servername ?? servername }, (err, socket) => {
            if (err) attempt(i + 1, err);
            else callback(null, socket);
          });
        };
        attempt(0, null);
      },
      (err: Error) => callback(err, null),
    );
  };
}

export interface AgentOptions extends GuardOptions {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connectionsPerOrigin: number;
}

/**
 * The one dispatcher link checks and client metadata fetches use: guarded connections, short
 * timeouts, few per origin. Its options are checked when it is made; the undici agent itself is
 * made by the first request, which loads undici.
 */
export class GuardedAgent {
  private readonly options: AgentOptions;
  private readonly guard: ConnectionGuard;
  private made: Promise<Agent> | undefined;

  constructor(options: AgentOptions) {
    this.options = options;
    this.guard = connectionGuard(options);
  }

  dispatcher(): Promise<Agent> {
    this.made ??= loadUndici().then((undici) => {
      const { options } = this;
      const open =
        options.openSocket ??
        undici.buildConnector({
          timeout: options.connectTimeoutMs,
          allowH2: false,
          ...(options.testOnlyCa && { ca: options.testOnlyCa }),
        });
      return new undici.Agent({
        connect: guardedConnector(this.guard, open),
        connections: options.connectionsPerOrigin,
        headersTimeout: options.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs,
        allowH2: false,
      });
    });
    return this.made;
  }

  /** Closes pooled connections, requests in flight finish first; an agent never used has none. */
  async close(): Promise<void> {
    if (this.made) await (await this.made).close();
  }
}

export interface HopAnswer {
  status: number;
  location: string | null;
}

export interface HopRequest {
  url: URL;
  method: 'HEAD' | 'GET';
  signal: AbortSignal;
  maxBodyBytes: number;
  userAgent: string;
}

/** One request, no redirect followed; reads at most maxBodyBytes of the body, then drops the connection. */
export async function fetchHop(agent: GuardedAgent, hop: HopRequest): Promise<HopAnswer> {
  const [{ request }, dispatcher] = await Promise.all([loadUndici(), agent.dispatcher()]);
  const response = await request(hop.url, {
    dispatcher,
    method: hop.method,
    signal: hop.signal,
    headers: { 'user-agent': hop.userAgent, accept: '*/*' },
  });
  await response.body.dump({ limit: hop.maxBodyBytes });
  const location = response.headers.location;
  return { status: response.statusCode, location: (Array.isArray(location) ? location[0] : location) ?? null };
}
