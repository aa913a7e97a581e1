import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { type Logger, stdSerializers } from 'pino';

type LogFn = (obj: unknown, msg?: string) => void;

/** The little of a logger that handlers and the core use; pino and Fastify's request log fit it. */
export interface Log {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}

const CENSOR = '[redacted]';
/** An API key wherever it appears, percent-encoded underscores included. */
const API_KEY = /sk(?:_|%5f)service(?:_|%5f)[\w%-]+/gi;
/** A credential after its scheme, as in an Authorization header echoed into a message. */
const CREDENTIAL = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
/** `name=value` pairs, in a query string or a cookie; the value is hidden when the name says it is secret. */
const NAMED_VALUE = /(^|[?&;\s])([\w.%-]+)=([^&#\s"';]*)/g;
const SECRET_NAME =
  /(key|token|secret|passw(?:or)?d|pwd|session|code|auth|sig(?:nature)?|cookie|credentials?)(?:_?id)?$/i;
/** Headers that carry credentials, wherever a log object holds a set of headers. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'];
const HEADER_HOLDERS = ['headers', 'req.headers', 'res.headers', 'request.headers', 'reply.headers'];

/** The text with anything that looks like a key, a bearer credential or a secret-named value masked. */
export function maskSecrets(text: string): string {
  return text
    .replace(API_KEY, CENSOR)
    .replace(CREDENTIAL, `$1 ${CENSOR}`)
    .replace(NAMED_VALUE, (pair, before: string, name: string) =>
      SECRET_NAME.test(name) ? `${before}${name}=${CENSOR}` : pair,
    );
}

/** A request as Fastify logs it, with its URL masked: query parameters are where keys get sent by mistake. */
function requestWithoutSecrets(request: FastifyRequest | IncomingMessage) {
  const fastifyRequest = request as Partial<FastifyRequest>;
  return {
    method: request.method,
    url: maskSecrets(request.url ?? ''),
    host: fastifyRequest.host ?? request.headers?.host,
    remoteAddress: fastifyRequest.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * An error with the parts that may echo input masked. Node's parser errors carry the raw bytes it
 * read (headers and all) as rawPacket: those are dropped.
 */
function errorWithoutSecrets(err: Error) {
  const { rawPacket: _rawPacket, ...serialized } = stdSerializers.err(err) as ReturnType<typeof stdSerializers.err> & {
    rawPacket?: unknown;
  };
  return JSON.parse(maskSecrets(JSON.stringify(serialized)));
}

/**
 * The logger the server writes through: request URLs and errors masked as they are serialized,
 * and credential headers redacted wherever a log object carries headers. Request logs of Fastify
 * are children of it and keep all of this.
 */
export function withoutSecrets(logger: Logger): Logger {
  return logger.child(
    {},
    {
      serializers: { req: requestWithoutSecrets, err: errorWithoutSecrets },
      redact: {
        paths: HEADER_HOLDERS.flatMap((holder) => SECRET_HEADERS.map((name) => `${holder}["${name}"]`)),
        censor: CENSOR,
      },
    },
  );
}
