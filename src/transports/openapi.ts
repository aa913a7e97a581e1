import type { z } from 'zod';
import { errorCatalogue } from '../core/errors.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Registry } from '../core/registry.ts';
import { API_VERSION } from '../core/versions.ts';
import { API_PREFIX } from './rest.ts';
import { jsonSchemaOf } from './tool-list.ts';

type JsonObject = Record<string, unknown>;

const errorEnvelope = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(errorCatalogue) },
        message: { type: 'string', description: 'For people; clients act on code' },
        requestId: { type: 'string', description: 'The X-Request-Id of the request; quote it to support' },
        retryAfterMs: { type: 'integer', description: 'With rate_limited: wait this long before the next request' },
        details: { type: 'object', description: 'With not_publishable: { blocking: [{ code, message }] }' },
      },
    },
  },
};

/** The errors an operation can answer, by the specification's rules for reads and writes. */
function errorCodesOf(op: AnyOperation): string[] {
  const codes = [
    'invalid_argument',
    'unauthenticated',
    'invalid_api_key',
    'forbidden',
    'rate_limited',
    'internal_error',
  ];
  if (op.pathParams.length > 0) codes.push('not_found');
  if (!op.readOnly) codes.push('invalid_request', 'api_scope_required', 'payload_too_large');
  return codes;
}

function operationObject(op: AnyOperation): JsonObject {
  const input = jsonSchemaOf(op.input, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inQuery = op.method === 'GET' || op.method === 'DELETE';
  const parameters: JsonObject[] = [];
  const bodyProps: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (op.pathParams.includes(name)) parameters.push({ name, in: 'path', required: true, schema });
    else if (inQuery) parameters.push({ name, in: 'query', required: required.has(name), schema });
    else bodyProps[name] = schema;
  }
  const responses: JsonObject = {
    [String(op.successStatus)]: {
      description: op.successStatus === 201 ? 'Created' : 'OK',
      content: { 'application/json': { schema: jsonSchemaOf(op.output as z.ZodType, 'output') } },
    },
  };
  for (const code of errorCodesOf(op)) {
    const status = String(errorCatalogue[code as keyof typeof errorCatalogue].status);
    const existing = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: existing ? `${existing.description}, ${code}` : code,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  const operation: JsonObject = {
    operationId: op.name,
    summary: op.title,
    description: op.description,
    tags: [op.path.split('/')[1] ?? 'api'],
    parameters,
    responses,
    'x-scope': op.scope,
    'x-stability': op.stability,
    'x-since': op.since,
    'x-mcp-tool': op.restOnly ? null : op.name,
  };
  if (op.body.kind !== 'json') {
    // Uploads: the file is the body; every field may come in the query (or as a form field).
    for (const [name, schema] of Object.entries(bodyProps)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
    operation.requestBody = uploadBody(op.body.kind, bodyProps);
  } else if (!inQuery) {
    const bodyRequired = [...required].filter((n) => !op.pathParams.includes(n));
    operation.requestBody = {
      required: bodyRequired.length > 0,
      content: {
        'application/json': {
          schema: { type: 'object', additionalProperties: false, properties: bodyProps, required: bodyRequired },
        },
      },
    };
  }
  return operation;
}

/** An upload's body: one image (raw or a one-file form), or a form of several files; fields beside them. */
function uploadBody(kind: 'image' | 'multipart', fields: Record<string, JsonObject>): JsonObject {
  const binary = { type: 'string', contentMediaType: 'application/octet-stream' };
  const files = kind === 'image' ? { file: binary } : { files: { type: 'array', items: binary } };
  const form = { 'multipart/form-data': { schema: { type: 'object', properties: { ...files, ...fields } } } };
  return {
    required: true,
    content: kind === 'image' ? { 'image/*': { schema: binary }, ...form } : form,
  };
}

/** The OpenAPI 3.1 document, derived from the same declarations as the routes and tools. */
export function buildOpenApi(registry: Registry, serverUrl: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const op of registry.operations) {
    const item = paths[op.path] ?? {};
    item[op.method.toLowerCase()] = operationObject(op);
    paths[op.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creator API for travel guides',
      version: API_VERSION,
      description: 'Every operation is also an MCP tool of the same name and input at /mcp (the uploads aside).',
    },
    servers: [{ url: `${serverUrl}${API_PREFIX}` }],
    security: [{ bearer: [] }, { apiKey: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_service_…' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      schemas: { ErrorEnvelope: errorEnvelope },
    },
    paths,
  };
}
