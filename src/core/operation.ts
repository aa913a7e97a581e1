import { z } from 'zod';
import type { OperationScope, Principal } from './auth.ts';
import type { Clock } from './clock.ts';
import type { ErrorCode } from './errors.ts';
import type { OwnedGuide } from './guide-access.ts';
import type { Log } from './log.ts';
import type { OperationPolicy } from './rate-limit.ts';
import type { DeletesReferences } from './references.ts';
import type { Services } from './services.ts';
import type { Stores } from './stores.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Stability = 'stable' | 'beta';

/** Public addresses the records point at (studio and sales pages, photo files). */
export interface Urls {
  publicUrl: string;
  studioUrl: string;
  /** Where photo files are fetched from when not this service's /media: the bucket's own addresses. */
  mediaUrl?: string | undefined;
}

/** A file that came with the request (REST only: raw image bytes or a multipart file part). */
export interface Upload {
  /** The form field it came in; `file` for a raw body. */
  field: string;
  filename: string | undefined;
  contentType: string | undefined;
  /**
   * Valid while the call runs: a raw photo body may sit in a buffer the transport reads the next
   * upload into once the call has ended (transports/kept-bodies.ts). Copy what must outlive it.
   */
  bytes: Buffer;
}

/**
 * How a REST request's body arrives. JSON is the default, and may raise the 2 MB limit over REST (a
 * long GPX track), never over MCP, whose messages stay at 2 MB. The photo uploads take one image
 * (raw bytes with an image content type, or a multipart form with one file part) or a multipart
 * form of several files; a file upload (a map file) takes one file of any type like an image. Each has its own size limit, answered as 413 payload_too_large before the
 * body is read whole; form fields are input fields like the query's.
 */
export type BodyKind =
  | { kind: 'json'; maxBytes?: number }
  | { kind: 'image'; maxBytes: number }
  /** One file of any type but JSON (a map file for import), raw or as a one-file form. */
  | { kind: 'file'; maxBytes: number }
  | { kind: 'multipart'; maxBytes: number; maxFiles: number; maxFileBytes: number };

/** What every phase of a call sees: never the transport that carried it. */
export interface CallContext {
  principal: Principal;
  clock: Clock;
  urls: Urls;
  requestId: string;
  log: Log;
  /** Files sent with the request; empty for JSON bodies. */
  uploads: readonly Upload[];
  services: Services;
  /** Records something accepted but worth a look; write answers carry them as `warnings`. */
  warn(message: string): void;
}

/**
 * What `prepare` sees: the call, the stores and the caller's guides outside any transaction, to
 * read what it works on (a read: the guide is neither locked nor stamped).
 */
export interface PrepareContext extends CallContext {
  stores: Stores;
  guide(productId: string): Promise<OwnedGuide>;
}

/** What a handler sees: the call, the stores (inside the call's transaction for a write), its guide. */
export interface OperationContext extends CallContext, DeletesReferences {
  stores: Stores;
  /**
   * Work to do once the write committed (deleting files the old rows named), never when it fails:
   * a row must never name a missing file. Its failure is logged, not answered.
   */
  afterCommit(work: () => Promise<unknown>): void;
  /**
   * The caller's guide, or not_found (the same for another creator's as for a missing one). In a
   * write it is locked until the call ends and marked changed, so its cached views move on.
   */
  guide(productId: string): Promise<OwnedGuide>;
}

type InputSchema = z.ZodObject;

/** MCP hints where the HTTP method would mislead (a PUT that adds a row on every call). */
export interface AnnotationOverrides {
  idempotent?: boolean;
  destructive?: boolean;
  /** The operation reaches outside this service (fetching a creator's links). */
  openWorld?: boolean;
}

/** One call and its answer, as JSON; checked against the schemas by a test rather than by types. */
export interface OperationExample {
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

export interface OperationDeclaration<I extends InputSchema, O extends z.ZodObject, P = undefined> {
  name: string;
  title: string;
  method: HttpMethod;
  /** Relative to the API base, with `{param}` placeholders that are fields of the input. */
  path: string;
  scope: OperationScope;
  stability: Stability;
  since: string;
  /** Written for a model reading it: what the operation does and what to know before calling. */
  description: string;
  input: I;
  output: O;
  /** 201 for creations; 200 otherwise. */
  successStatus?: 200 | 201;
  /** The two photo uploads are REST only. */
  restOnly?: boolean;
  /** JSON unless said. */
  body?: BodyKind;
  /**
   * Errors it can answer beyond those the specification gives every read (and write): they feed
   * the OpenAPI document, the reference and the tool description from here.
   */
  errors?: readonly ErrorCode[];
  annotations?: AnnotationOverrides;
  /**
   * One realistic call: what a client sends (path, query and body fields together, as the MCP
   * arguments) and what it gets back. Served in the OpenAPI document and the reference; a test
   * checks both sides against the schemas, so an example cannot drift from them.
   */
  example: OperationExample;
  /**
   * For a 201: where the created resource is read, relative to the API base (REST's Location
   * header). Its own read where there is one, else the list that shows it.
   */
  location?(output: z.output<O>, input: z.output<I>): string;
  /** A limit of its own beside the per-key and per-creator ones, keyed by what the input names. */
  rateLimit?: { policy: OperationPolicy; key(input: z.output<I>, principal: Principal): string };
  /**
   * Work that must not run twice at once (fetching a guide's links): a call runs only while no
   * other call of the same job runs, on any instance; one that finds it running is refused with
   * rate_limited, saying `running`, and may try again after `retryAfterMs`.
   */
  exclusive?: { job(input: z.output<I>, principal: Principal): string; running: string; retryAfterMs: number };
  /**
   * Work that must not hold the store's transaction (decoding images, fetching links): it runs
   * first, outside it, and the handler writes its result in one short transaction.
   */
  prepare?(input: z.output<I>, ctx: PrepareContext): Promise<P>;
  /** Undoes what `prepare` left outside the store (files written) when the write then fails. */
  discard?(prepared: P, ctx: CallContext): Promise<void>;
  /** A promise, or (a read whose answer is at hand: a kept view) the answer itself. */
  handler(input: z.output<I>, ctx: OperationContext, prepared: P): z.input<O> | Promise<z.input<O>>;
}

export interface Operation<I extends InputSchema = InputSchema, O extends z.ZodObject = z.ZodObject, P = undefined>
  extends OperationDeclaration<I, O, P> {
  successStatus: 200 | 201;
  body: BodyKind;
  errors: readonly ErrorCode[];
  pathParams: string[];
  /** Reads change nothing; deletes remove; PUT replaces whole, unless declared otherwise. */
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

export const warningsSchema = z
  .array(z.string())
  .optional()
  .describe('Things accepted but worth a look, such as a plain http link; present only when there are any.');

const JSON_BODY: BodyKind = { kind: 'json' };

/** Declares an operation once; REST, MCP, OpenAPI and the docs all derive from this. */
export function defineOperation<I extends InputSchema, O extends z.ZodObject, P = undefined>(
  declaration: OperationDeclaration<I, O, P>,
): Operation<I, O, P> {
  const pathParams = [...declaration.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  for (const param of pathParams) {
    if (!(param in declaration.input.shape)) {
      throw new Error(`${declaration.name}: path parameter {${param}} is not a field of the input`);
    }
  }
  const writes = declaration.scope !== 'read';
  const output = (writes && !('warnings' in declaration.output.shape)
    ? declaration.output.extend({ warnings: warningsSchema })
    : declaration.output) as unknown as O;
  const method = declaration.method;
  const hints = declaration.annotations ?? {};
  return {
    ...declaration,
    output,
    successStatus: declaration.successStatus ?? 200,
    body: declaration.body ?? JSON_BODY,
    errors: declaration.errors ?? [],
    pathParams,
    readOnly: !writes,
    destructive: hints.destructive ?? method === 'DELETE',
    idempotent: hints.idempotent ?? (method === 'PUT' || method === 'GET' || method === 'DELETE'),
    openWorld: hints.openWorld ?? false,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of every input and output type
export type AnyOperation = Operation<any, any, any>;
