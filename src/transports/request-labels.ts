import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiError } from '../core/errors.ts';

/**
 * What a request was, for metrics and traces, in values from small fixed sets: the transport (from
 * the route's config), the operation (an operation or MCP method name, never an id) and the error it
 * was answered with. Transports set them; nothing reads them unless metrics or traces are on.
 */
export type TransportLabel = 'rest' | 'mcp' | 'page' | 'file' | 'other';

declare module 'fastify' {
  interface FastifyContextConfig {
    transport?: TransportLabel;
    /** The operation a REST route serves. */
    operation?: string;
  }
  interface FastifyRequest {
    /** The operation called, when the route alone does not say (an MCP message). */
    operationName: string | null;
    /** The error this request was answered with: a REST refusal, or a tool error inside an MCP 200. */
    refusal: ApiError | null;
  }
}

export function decorateRequestLabels(app: FastifyInstance): void {
  app.decorateRequest('operationName', null);
  app.decorateRequest('refusal', null);
}

export function transportOf(request: FastifyRequest): TransportLabel {
  return request.routeOptions.config.transport ?? 'other';
}

export function operationOf(request: FastifyRequest): string {
  return request.routeOptions.config.operation ?? request.operationName ?? 'none';
}
