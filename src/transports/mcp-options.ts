import type { FastifyRequest } from 'fastify';
import type { ApiError } from '../core/errors.ts';
import type { EarlyReads } from './rest-early.ts';

/**
 * What the /mcp routes (mcp.ts, loaded at start) and their answerer (mcp-endpoint.ts, loaded by the
 * first MCP request) both need: here, so that neither imports the other.
 */
export const MCP_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Which path answered an MCP request: a tool call in the clients' own form recognized without the
 * SDK, the direct answer on the SDK's parts, or the SDK's full entry.
 */
export type McpPath = 'recognized' | 'direct' | 'sdk';

/** Runs a tool call inside a trace span (tracing.ts): joined to the trace context in the call's `_meta`. */
export type ToolCallTracer = <T extends { error?: ApiError }>(
  request: FastifyRequest,
  tool: string,
  meta: Record<string, unknown> | undefined,
  run: () => Promise<T>,
) => Promise<T>;

export interface McpOptions {
  allowedHosts: string[];
  direct: boolean;
  /** Told which path answered each request; `early` when a recognized call was answered before Fastify (mcp-early.ts). */
  observe?: (path: McpPath, early?: boolean) => void;
  trace?: ToolCallTracer;
  /** Where recognized tool calls are answered before Fastify, when the app answers any request there. */
  early?: EarlyReads;
}
