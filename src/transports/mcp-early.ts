import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Principal } from '../core/auth.ts';
import type { Log } from '../core/log.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Authenticate } from './authenticate.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-body.ts';
import { MCP_BODY_LIMIT } from './mcp-options.ts';
import type { ToolCall } from './mcp-tool-call.ts';
import type { EarlyPost } from './rest-early.ts';

/**
 * Tool calls in the official clients' own form (mcp-tool-call.ts) answered before Fastify routes
 * them, as REST's plain reads are (rest-early.ts): a recognized call spent about a fifth of its
 * instructions in Fastify's routing, request and reply objects, hook runners, its body parser's
 * plumbing and the route's glue, none of which changes its answer (docs/decisions/performance.md,
 * "MCP get_guide: what a call costs now"). The body is read here; a call is answered here only
 * once it is recognized, its tool is one MCP serves, its Host and Origin are allowed and its
 * caller is authenticated, and then by the very function the route uses. Anything else goes to
 * Fastify as it would have: its body replayed to the route's parser (`replayedBody`, the route's
 * preParsing hook), and a refused credential handed over as the refusal it was
 * (`earlyAuthentication`), so that its failure is counted once and sent by the route.
 */

/** What the route is handed of a POST read here and not answered. */
interface ReadEarly {
  /** The body's bytes, or what cut them short (a client gone mid-body). */
  body: Buffer | Error;
  /** The authentication run here, when it refused. */
  authenticated?: Promise<Principal>;
}

const READ_EARLY = Symbol('creator-api.mcpEarly');

type Marked = IncomingMessage & { [READ_EARLY]?: ReadEarly };

/**
 * The body this request's early reading took, to be read again by the route's parser: the same
 * bytes, or the same error. Undefined when nothing was read early.
 */
export function replayedBody(req: IncomingMessage): Readable | undefined {
  const read = (req as Marked)[READ_EARLY];
  if (read === undefined) return undefined;
  const { body } = read;
  if (body instanceof Error) {
    return new Readable({
      read() {
        this.destroy(body);
      },
    });
  }
  return Readable.from([body]);
}

/** The refusal authentication gave this request early, for the route to send instead of asking again. */
export function earlyAuthentication(req: IncomingMessage): Promise<Principal> | undefined {
  return (req as Marked)[READ_EARLY]?.authenticated;
}

/** A recognized call, authenticated, as the route's answerer takes it. */
export interface EarlyCall {
  call: ToolCall;
  operation: AnyOperation;
  principal: Principal;
  arrival: number | undefined;
  requestId: string;
  log: Log;
}

/** A tools/call in the clients' own form, of a tool MCP serves. */
export interface RecognizedCall {
  call: ToolCall;
  operation: AnyOperation;
}

/**
 * The early answers of tool calls. Loaded at start (mcp.ts replays their bodies), so it takes what
 * needs the MCP SDK from mcp-endpoint.ts, which the first MCP request loads.
 */
export interface EarlyToolCallDeps {
  /** The call, when the message is a recognized one (mcp-tool-call.ts) of a tool MCP serves. */
  recognize(message: unknown, headers: IncomingHttpHeaders): RecognizedCall | undefined;
  authenticate: Authenticate;
  /** Whether the Host and Origin may call /mcp (the route refuses the others). */
  placeAllowed(host: string | undefined, origin: string | undefined): boolean;
  /** Where the store's commit stamp reads stand (Call.arrival), taken before the key is checked. */
  arrival(): number | undefined;
  /** Answers the call on `res`, as the route answers a recognized call; never throws. */
  answer(early: EarlyCall, res: ServerResponse): void;
}

/** The content types the route's JSON parser takes that the official clients send. */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/** The POST /mcp answerer put before Fastify (rest-early.ts's listener calls it). */
export function earlyToolCalls(deps: EarlyToolCallDeps): EarlyPost {
  const { recognize, authenticate } = deps;
  return (req, res, handOver, early) => {
    const { headers } = req;
    const length = Number(headers['content-length']);
    if (
      !(length > 0 && length <= MCP_BODY_LIMIT) ||
      headers['transfer-encoding'] !== undefined ||
      !JSON_TYPES.has(headers['content-type'] as string) ||
      !deps.placeAllowed(headers.host, headers.origin)
    ) {
      return handOver();
    }
    const handOverWith = (read: ReadEarly) => {
      (req as Marked)[READ_EARLY] = read;
      handOver();
    };
    readBody(req, (body) => {
      if (body instanceof Error) return handOverWith({ body });
      let recognized: RecognizedCall | undefined;
      let arrival: number | undefined;
      let authenticated: Principal | Promise<Principal>;
      try {
        recognized = recognize(JSON.parse(body.toString('utf8')), headers);
        // The route's parser refuses a body nested too deep (json-body.ts). A recognized message's own
        // members are a few levels at most, and recognizing walks none of them: only its arguments,
        // two levels down (message, params), are walked here, with what is left of the budget.
        if (recognized === undefined || nestsDeeperThan(recognized.call.arguments, MAX_JSON_DEPTH - 2)) {
          return handOverWith({ body });
        }
        arrival = deps.arrival();
        const ip = req.socket.remoteAddress as string;
        authenticated = authenticate({ ip, headers, url: req.url as string, method: 'POST' });
      } catch {
        // Not JSON (the route refuses it), or anything unforeseen: the route meets it where it is handled.
        return handOverWith({ body });
      }
      const { call, operation } = recognized;
      const answer = (principal: Principal) => {
        const requestId = early.requestId(req);
        deps.answer({ call, operation, principal, arrival, requestId, log: early.logFor(requestId) }, res);
      };
      if (!(authenticated instanceof Promise)) return answer(authenticated);
      const refused = authenticated;
      refused.then(answer, () => handOverWith({ body, authenticated: refused }));
    });
  };
}

/**
 * The whole body (Node's parser ends it at Content-Length), or the error that cut it short; once.
 * The listeners stay: nothing comes after the end but an error, which they then ignore.
 */
function readBody(req: IncomingMessage, done: (body: Buffer | Error) => void): void {
  const chunks: Buffer[] = [];
  let ended = false;
  const onEnd = (err?: Error) => {
    if (ended) return;
    ended = true;
    done(err ?? (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
  };
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', onEnd);
  req.on('error', onEnd);
}
