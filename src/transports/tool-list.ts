import type { AnyOperation } from '../core/operation.ts';
import { shallowOutputSchema, toolInputSchema } from './json-schema.ts';
import { ownErrorsOf } from './operation-errors.ts';

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
  // The codes every call can answer (invalid_argument, rate_limited…) would repeat on every tool:
  // the line names what this one adds; the OpenAPI document and the reference list them all.
  const own = ownErrorsOf(op);
  const errors = own.length > 0 ? ` Errors: ${own.join(', ')}.` : '';
  return {
    name: op.name,
    title: op.title,
    description: `${op.description}${stability} Scope: ${op.scope}.${errors}`,
    inputSchema: toolInputSchema(op.input),
    outputSchema: shallowOutputSchema(op.output),
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
