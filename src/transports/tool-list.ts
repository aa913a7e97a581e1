import { z } from 'zod';
import type { AnyOperation } from '../core/operation.ts';

export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  outputSchema: Record<string, unknown> & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  _meta: Record<string, string>;
}

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

/** The MCP face of an operation: same name, same input, annotations following its scope. */
export function describeTool(op: AnyOperation): ToolDescription {
  const stability = op.stability === 'beta' ? ' (beta)' : '';
  return {
    name: op.name,
    title: op.title,
    description: `${op.description}${stability} REST: ${op.method} ${op.path}. Scope: ${op.scope}.`,
    inputSchema: jsonSchemaOf(op.input, 'input') as ToolDescription['inputSchema'],
    outputSchema: jsonSchemaOf(op.output, 'output') as ToolDescription['outputSchema'],
    annotations: {
      title: op.title,
      readOnlyHint: op.readOnly,
      destructiveHint: op.destructive,
      idempotentHint: op.idempotent,
      openWorldHint: false,
    },
    _meta: { 'creator-api/stability': op.stability, 'creator-api/since': op.since },
  };
}
