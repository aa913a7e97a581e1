import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/tables.ts';
import type { OperationScope, Principal } from './auth.ts';
import type { Clock } from './clock.ts';
import type { Log } from './log.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Stability = 'stable' | 'beta';

/** Public addresses the records point at (studio and sales pages). */
export interface Urls {
  publicUrl: string;
  studioUrl: string;
}

/** What a handler sees of the call: never the transport that carried it. */
export interface OperationContext {
  principal: Principal;
  /** The store, inside the call's transaction for writes: a failed write changes nothing. */
  db: Kysely<Database>;
  clock: Clock;
  urls: Urls;
  requestId: string;
  log: Log;
  /** Records something accepted but worth a look; write answers carry them as `warnings`. */
  warn(message: string): void;
}

type InputSchema = z.ZodObject;

export interface OperationDeclaration<I extends InputSchema, O extends z.ZodObject> {
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
  handler(input: z.output<I>, ctx: OperationContext): Promise<z.input<O>>;
}

export interface Operation<I extends InputSchema = InputSchema, O extends z.ZodObject = z.ZodObject>
  extends OperationDeclaration<I, O> {
  successStatus: 200 | 201;
  pathParams: string[];
  /** Reads change nothing; deletes remove; PUT replaces whole. Drives MCP tool annotations. */
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

export const warningsSchema = z
  .array(z.string())
  .optional()
  .describe('Things accepted but worth a look, such as a plain http link; present only when there are any.');

/** Declares an operation once; REST, MCP, OpenAPI and the docs all derive from this. */
export function defineOperation<I extends InputSchema, O extends z.ZodObject>(
  declaration: OperationDeclaration<I, O>,
): Operation<I, O> {
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
  return {
    ...declaration,
    output,
    successStatus: declaration.successStatus ?? 200,
    pathParams,
    readOnly: !writes,
    destructive: declaration.method === 'DELETE',
    idempotent: declaration.method === 'PUT' || declaration.method === 'GET' || declaration.method === 'DELETE',
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of every input and output type
export type AnyOperation = Operation<any, any>;
