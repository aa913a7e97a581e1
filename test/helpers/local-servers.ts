import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { buildConnector } from 'undici';
import { ManualClock } from '../../src/core/clock.ts';
import { LinkChecker, type LinkCheckerOptions } from '../../src/resources/links/link-checker.ts';
import type { SocketOpener } from '../../src/resources/links/safe-fetch.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, server: LocalServer) => void;

/** A local HTTP server that counts what reaches it. */
export interface LocalServer {
  port: number;
  /** http://<host>:<port>, with the host bracketed for IPv6. */
  origin: string;
  connections: number;
  requests: { method: string; url: string }[];
  /** Requests being answered right now, and the most there ever were at once. */
  inFlight: number;
  maxInFlight: number;
}

/** Starts a server on 127.0.0.1 (or another local address); closed after the file's tests. */
export async function serve(handler: Handler, host = '127.0.0.1'): Promise<LocalServer> {
  const state: LocalServer = { port: 0, origin: '', connections: 0, requests: [], inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    state.requests.push({ method: req.method ?? '', url: req.url ?? '' });
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.on('close', () => state.inFlight--);
    handler(req, res, state);
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}`;
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return state;
}

/** Answers every request with this status and, for a redirect, this Location. */
export const answer =
  (status: number, location?: string): Handler =>
  (_req, res) => {
    res.writeHead(status, location ? { location } : {});
    res.end(status < 300 ? 'hello' : '');
  };

export const clock = new ManualClock('2026-11-23T10:00:00Z');

/** A checker allowed to reach exactly these local servers; closed after the file's tests. */
export function checkerFor(servers: readonly LocalServer[], options: Partial<LinkCheckerOptions> = {}): LinkChecker {
  const checker = new LinkChecker({
    clock,
    testOnlyLoopbackPorts: servers.map((s) => s.port),
    ...options,
  });
  after(() => checker.close());
  return checker;
}

/** A socket opener that records every address it is asked for and connects only to 127.0.0.1. */
export function recordingOpener(): { open: SocketOpener; asked: string[]; servernames: (string | undefined)[] } {
  const real = buildConnector({ timeout: 2_000 });
  const asked: string[] = [];
  const servernames: (string | undefined)[] = [];
  const open: SocketOpener = (target, callback) => {
    asked.push(target.hostname);
    servernames.push(target.servername);
    // Anything else would leave this machine: refuse it here, so even a broken guard sends nothing.
    if (target.hostname === '127.0.0.1') real(target, callback);
    else callback(new Error(`test opener refused ${target.hostname}`), null);
  };
  return { open, asked, servernames };
}
