import type { AnyOperation } from '../core/operation.ts';
import { jsonSchemaOf } from './json-schema.ts';
import { errorCodesOf } from './operation-errors.ts';

/** Kept here too: tests of a field type read its JSON Schema the way the tool list makes it. */
export { jsonSchemaOf } from './json-schema.ts';

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

/** The MCP face of an operation: same name, same input, annotations following its scope. */
export function describeTool(op: AnyOperation): ToolDescription {
  const stability = op.stability === 'beta' ? ' (beta)' : '';
  return {
    name: op.name,
    title: op.title,
    description: `${op.description}${stability} REST: ${op.method} ${op.path}. Scope: ${op.scope}. Errors: ${errorCodesOf(op).join(', ')}.`,
    inputSchema: jsonSchemaOf(op.input, 'input', 'tool') as ToolDescription['inputSchema'],
    outputSchema: jsonSchemaOf(op.output, 'output', 'tool') as ToolDescription['outputSchema'],
    annotations: {
      title: op.title,
      readOnlyHint: op.readOnly,
      destructiveHint: op.destructive,
      idempotentHint: op.idempotent,
      openWorldHint: op.openWorld,
    },
    _meta: { 'creator-api/stability': op.stability, 'creator-api/since': op.since },
  };
}
