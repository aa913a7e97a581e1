type LogFn = (obj: unknown, msg?: string) => void;

/** The little of a logger that handlers and the core use; pino and Fastify's request log fit it. */
export interface Log {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}
