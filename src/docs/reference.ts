import type { z } from 'zod';
import { errorCatalogue } from '../core/errors.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Registry } from '../core/registry.ts';
import { API_VERSION } from '../core/versions.ts';
import { jsonSchemaOf } from '../transports/json-schema.ts';
import { errorCodesOf } from '../transports/operation-errors.ts';
import { referenceFindingCodes } from './finding-codes.ts';

interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  $ref?: string;
}

function typeOf(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'any';
  if (schema.enum) return schema.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  return Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
}

function fieldRows(schema: JsonSchema, pathParams: string[]): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, field]) => {
    const where = pathParams.includes(name) ? 'path' : '';
    const need = required.has(name) ? 'required' : 'optional';
    return `| \`${name}\` | ${typeOf(field)} | ${[where, need].filter(Boolean).join(', ')} | ${(field.description ?? '').replace(/\|/g, '\\|')} |`;
  });
}

function section(op: AnyOperation): string {
  const input = jsonSchemaOf(op.input as z.ZodType, 'input') as JsonSchema;
  const output = jsonSchemaOf(op.output as z.ZodType, 'output') as JsonSchema;
  const lines = [
    `### ${op.name}`,
    '',
    `\`${op.method} ${op.path}\` · ${op.scope} · ${op.stability} · since ${op.since}${op.restOnly ? ' · REST only' : ''}`,
    '',
    op.description,
    '',
  ];
  const rows = fieldRows(input, op.pathParams);
  if (rows.length > 0) lines.push('| field | type | | notes |', '|---|---|---|---|', ...rows, '');
  lines.push(
    `Answers ${op.successStatus} with: ${Object.keys(output.properties ?? {})
      .map((k) => `\`${k}\``)
      .join(', ')}.`,
    '',
    `Errors: ${errorCodesOf(op)
      .map((code) => `\`${code}\``)
      .join(', ')}.`,
    '',
  );
  lines.push(
    'Example:',
    '',
    '```json',
    JSON.stringify(op.example.input, null, 2),
    '```',
    '',
    '```json',
    JSON.stringify(op.example.output, null, 2),
    '```',
    '',
  );
  return lines.join('\n');
}

/** The operation reference, generated from the declarations so it cannot drift from them. */
export function renderReference(registry: Registry): string {
  const head = [
    '# Operation reference',
    '',
    `Generated from the operation declarations (\`npm run docs\`); API version ${API_VERSION}.`,
    'Every operation is `{base_url}` + path over REST and an MCP tool of the same name and input.',
    '',
    '## Errors',
    '',
    '| code | status | when |',
    '|---|---|---|',
    ...Object.entries(errorCatalogue).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.when} |`),
    '',
    ...referenceFindingCodes(),
    '## Operations',
    '',
  ];
  return `${[...head, ...registry.operations.map(section)].join('\n').trimEnd()}\n`;
}
