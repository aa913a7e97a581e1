import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { then } from '../core/at-once.ts';
import type { Log } from '../core/log.ts';
import { COMPRESS_MIN_BYTES } from './compression.ts';
import { rateLimitField } from './rate-limit-headers.ts';
import type { RestOutcome, RestRoute } from './rest-route.ts';

/**
 * REST reads answered before Fastify routes them. A cached get_guide spends about a fifth of its
 * instructions in Fastify's routing, request and reply objects, hook runners and response
 * listeners, none of which changes its answer (docs/decisions/performance.md, "REST reads before
 * Fastify"). A GET in the plainest form (a path of plain characters that only one route can take,
 * no query, no body) to a REST read route is run here, by the very RestRoute Fastify's route runs;
 * a small success is written as that route writes it. Anything else, and every refusal, failure or
 * large answer, goes to Fastify: a request not taken here goes as it came; one run here goes with
 * its outcome, which the route then sends (so refusals keep their one sender: headers, challenges,
 * logs and metrics labels as ever). Fastify sees every request it would have seen, but the small
 * successes, and answers it with the same request id.
 */

/** Characters that Fastify's router (find-my-way) leaves as they are: no decoding, no query, no fragment. */
const PLAIN_PATH = /^\/api\/v1\/[\w.~/-]*$/;
/** Well under the router's own bound (maxParamLength), past which it routes nowhere. */
const MAX_PARAM_CHARS = 256;

const RAN_EARLY = Symbol('creator-api.restEarly');

interface RanEarly {
  id: string;
  outcome: RestOutcome | undefined;
}

type Marked = IncomingMessage & { [RAN_EARLY]?: RanEarly };

/** The request id an early read gave the request it handed over (Fastify's genReqId uses it). */
export function earlyRequestId(req: IncomingMessage): string | undefined {
  return (req as Marked)[RAN_EARLY]?.id;
}

/** The outcome of the read run early for this request, for the route to send; once. */
export function takeEarlyOutcome(req: IncomingMessage): RestOutcome | undefined {
  const ran = (req as Marked)[RAN_EARLY];
  if (ran === undefined) return undefined;
  const { outcome } = ran;
  ran.outcome = undefined;
  return outcome;
}

/** A route's path, segment by segment, as Fastify's router matches it. */
class PathPattern {
  /** Static segments as text; a parameter's as null; anything fancier (regular expressions, several parameters in one segment) as undefined. */
  readonly segments: ReadonlyArray<string | null | undefined>;
  /** Where a wildcard stands, from which on it takes the rest of any path. */
  readonly wildcardAt: number;

  constructor(url: string) {
    const parts = url.split('/');
    const wildcard = parts.findIndex((part) => part.includes('*'));
    this.wildcardAt = wildcard;
    this.segments = (wildcard === -1 ? parts : parts.slice(0, wildcard)).map((part) => {
      if (/^:\w+$/.test(part)) return null;
      return part.includes(':') || part.includes('(') ? undefined : part;
    });
  }

  /** Whether a path cut into `parts` may be this route's. */
  matches(parts: readonly string[]): boolean {
    const { segments } = this;
    if (this.wildcardAt === -1 ? parts.length !== segments.length : parts.length < segments.length) return false;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      const part = parts[i] as string;
      if (segment === null) {
        if (part === '' || part.length > MAX_PARAM_CHARS) return false;
      } else if (segment !== undefined && segment !== part) return false;
    }
    return true;
  }

  /** Whether some path could be taken by both (so a path that matches this one must be checked against that one). */
  overlaps(other: PathPattern): boolean {
    const a = this.segments;
    const b = other.segments;
    if (this.wildcardAt === -1 && other.wildcardAt === -1 && a.length !== b.length) return false;
    if (this.wildcardAt === -1 && other.wildcardAt !== -1 && a.length < b.length) return false;
    if (other.wildcardAt === -1 && this.wildcardAt !== -1 && b.length < a.length) return false;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      if (typeof x === 'string' && typeof y === 'string' && x !== y) return false;
    }
    return true;
  }
}

interface EarlyRoute {
  pattern: PathPattern;
  route: RestRoute;
  /** The parameters' names, by segment. */
  params: ReadonlyArray<[number, string]>;
  /** Other GET routes some of this one's paths could reach: a path any of them matches is left to the router. */
  rivals: PathPattern[];
}

export interface EarlyOptions {
  /** Whether this request may be answered here now (not while shutting down, not when its trace is recorded). */
  mayAnswer(req: IncomingMessage): boolean;
  /** The request's id, as Fastify's genReqId gives it. */
  requestId(req: IncomingMessage): string;
  /** The request's logger, as Fastify's would be. */
  logFor(id: string): Log;
  /** Told of each request answered here, and of each run here and handed over (tests). */
  observe?: (answered: boolean) => void;
  /** Told of each request whose body is read here (the shutdown cuts those still sending). */
  track(req: IncomingMessage): void;
}

/**
 * An answerer of POSTs to one path (mcp-early.ts): it answers, or calls `handOver` for Fastify to
 * route the request (having arranged for the route to see what it read of it).
 */
export type EarlyPost = (req: IncomingMessage, res: ServerResponse, handOver: () => void, early: EarlyOptions) => void;

/** The REST reads that may be answered early, and the server's request listener that does it. */
export class EarlyReads {
  private readonly options: EarlyOptions;
  private readonly reads: Array<{ url: string; route: RestRoute }> = [];
  private readonly getRoutes: string[] = [];
  /** Built once every route is known (`seal`), by the number of segments. */
  private byLength: Map<number, EarlyRoute[]> | undefined;
  /** POST answerers by exact path (no query), added when their module loads. */
  private readonly posts = new Map<string, EarlyPost>();

  constructor(options: EarlyOptions) {
    this.options = options;
  }

  /** A REST read route (rest.ts). */
  add(url: string, route: RestRoute): void {
    this.reads.push({ url, route });
  }

  /** An answerer of POSTs to `path` (mcp.ts, once the MCP endpoint is loaded). */
  addPost(path: string, answer: EarlyPost): void {
    this.posts.set(path, answer);
  }

  /** Every route Fastify registers (its onRoute hook): the GET ones are what the reads' paths could also reach. */
  routeAdded(url: string, method: string | string[]): void {
    if (method === 'GET' || (Array.isArray(method) && method.includes('GET'))) this.getRoutes.push(url);
  }

  /** Once every route is registered (Fastify's onReady). */
  seal(): void {
    const others = this.getRoutes.map((url) => ({ url, pattern: new PathPattern(url) }));
    const byLength = new Map<number, EarlyRoute[]>();
    for (const { url, route } of this.reads) {
      const pattern = new PathPattern(url);
      if (pattern.wildcardAt !== -1 || pattern.segments.includes(undefined)) continue;
      const params: Array<[number, string]> = [];
      url.split('/').forEach((part, i) => {
        if (pattern.segments[i] === null) params.push([i, part.slice(1)]);
      });
      // The route itself is among Fastify's GET routes (once, or more if registered again): any other entry is a rival.
      let self = false;
      const rivals: PathPattern[] = [];
      for (const other of others) {
        if (other.url === url && !self) self = true;
        else if (pattern.overlaps(other.pattern)) rivals.push(other.pattern);
      }
      const early: EarlyRoute = { pattern, route, params, rivals };
      const same = byLength.get(pattern.segments.length);
      if (same) same.push(early);
      else byLength.set(pattern.segments.length, [early]);
    }
    this.byLength = byLength;
  }

  /**
   * Puts the early answers in front of the server's request listener (Fastify's), keeping the
   * server Fastify made and set up.
   */
  install(server: Server): void {
    const routed = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    if (routed.length !== 1)
      throw new Error(`rest-early: expected Fastify's one request listener, found ${routed.length}`);
    const fastify = routed[0] as (req: IncomingMessage, res: ServerResponse) => void;
    server.removeListener('request', fastify);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const url = req.url as string;
      if (req.method === 'POST') return this.post(url, req, res, fastify);
      if (req.method !== 'GET' || !PLAIN_PATH.test(url)) return fastify(req, res);
      const parts = url.split('/');
      const early = this.match(req, parts);
      if (early === undefined) return fastify(req, res);
      this.answer(early, parts, req, res, fastify);
    });
  }

  private post(
    url: string,
    req: IncomingMessage,
    res: ServerResponse,
    fastify: (req: IncomingMessage, res: ServerResponse) => void,
  ): void {
    const answer = this.posts.get(url);
    if (answer === undefined || req.socket.remoteAddress === undefined || !this.options.mayAnswer(req)) {
      fastify(req, res);
      return;
    }
    this.options.track(req);
    answer(req, res, () => fastify(req, res), this.options);
  }

  /** The read route a GET of a plain path, cut into `parts`, is taken by here, if it is in the plainest form. */
  private match(req: IncomingMessage, parts: readonly string[]): EarlyRoute | undefined {
    if (this.byLength === undefined) return undefined;
    const candidates = this.byLength.get(parts.length);
    if (candidates === undefined) return undefined;
    let found: EarlyRoute | undefined;
    for (const candidate of candidates) {
      if (candidate.pattern.matches(parts)) {
        found = candidate;
        break;
      }
    }
    if (found === undefined) return undefined;
    for (const rival of found.rivals) if (rival.matches(parts)) return undefined;
    const { headers } = req;
    // A body (even an empty one announced) is the router's to read or refuse.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
    if (req.socket.remoteAddress === undefined || !this.options.mayAnswer(req)) return undefined;
    return found;
  }

  private answer(
    early: EarlyRoute,
    parts: readonly string[],
    req: IncomingMessage,
    res: ServerResponse,
    fastify: (req: IncomingMessage, res: ServerResponse) => void,
  ): void {
    const id = this.options.requestId(req);
    const params: Record<string, string> = {};
    for (const [at, name] of early.params) params[name] = parts[at] as string;
    const presented = {
      ip: req.socket.remoteAddress as string,
      headers: req.headers,
      url: req.url as string,
      method: 'GET',
    };
    const called = early.route.call(presented, id, this.options.logFor(id), params, {}, undefined);
    // A call with every step at hand is written now, in the parser's turn; else once it comes.
    void then(called, (outcome) => this.send(outcome, id, req, res, fastify));
  }

  /** The outcome written here when it is a small success, else handed to Fastify for the route to send. */
  private send(
    outcome: RestOutcome,
    id: string,
    req: IncomingMessage,
    res: ServerResponse,
    fastify: (req: IncomingMessage, res: ServerResponse) => void,
  ): void {
    const { rate } = outcome;
    // What compression.ts's writeNow writes for the route: its headers in the order the route set them.
    const small = outcome.status < 300 && outcome.body.length < COMPRESS_MIN_BYTES;
    if (!outcome.failed && rate !== undefined && outcome.location === undefined && small) {
      try {
        res.writeHead(outcome.status, {
          'x-request-id': id,
          'ratelimit-policy': rate.policiesField,
          ratelimit: rateLimitField(rate.tightest),
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(outcome.body.length),
        });
        res.end(outcome.body);
        this.options.observe?.(true);
        return;
      } catch (err) {
        // Not expected (every value is checked text); should it happen before anything was sent, the route answers 500.
        if (res.headersSent) return void res.destroy(err as Error);
        outcome.failed = true;
        outcome.error = err;
      }
    }
    (req as Marked)[RAN_EARLY] = { id, outcome };
    this.options.observe?.(false);
    fastify(req, res);
  }
}
