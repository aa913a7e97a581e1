import type { z } from 'zod';
import { errorCatalogue } from '../core/errors.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Registry } from '../core/registry.ts';
import { API_VERSION } from '../core/versions.ts';
import { type JsonObject, jsonSchemaOf } from './json-schema.ts';
import { errorCodesOf } from './operation-errors.ts';
import { API_PREFIX } from './rest.ts';

const errorEnvelope = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(errorCatalogue), description: 'Clients act on this' },
        message: { type: 'string', description: 'For people; a refused field is named first, as `path: sentence`' },
        requestId: { type: 'string', description: 'The X-Request-Id of the request; quote it to support' },
        retryAfterMs: { type: 'integer', description: 'With rate_limited: wait this long before the next request' },
        details: {
          type: 'object',
          description:
            'On 400: path (the refused field) and issues (up to 20 of { path, message }). On 429: policy, limit and ' +
            'windowSeconds of the limit reached. On not_publishable: blocking, the open publish gates.',
          properties: {
            path: { type: 'string' },
            issues: {
              type: 'array',
              items: {
                type: 'object',
                required: ['path', 'message'],
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
            policy: { type: 'string' },
            limit: { type: 'integer' },
            windowSeconds: { type: 'integer' },
            blocking: {
              type: 'array',
              items: {
                type: 'object',
                required: ['code', 'message'],
                properties: { code: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
};

const headers = {
  'X-Request-Id': {
    description: 'The request id (yours when you sent a valid one); error bodies quote it',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'The tighter policy (on 429, the one that refused, r=0): `"name";r=remaining;t=seconds to reset`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'Every policy applied (on 429, the one that refused): `"name";q=limit;w=window seconds`',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before the next request', schema: { type: 'integer' } },
  Location: { description: 'Where the created resource is read, under the API base', schema: { type: 'string' } },
};
const ref = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });

/** A schema's named types move to components.schemas; its $refs follow them. */
function hoist(schema: JsonObject, components: Record<string, unknown>): JsonObject {
  const { $defs, ...rest } = schema as JsonObject & { $defs?: Record<string, JsonObject> };
  for (const [name, def] of Object.entries($defs ?? {})) {
    const moved = rewriteRefs(def) as JsonObject;
    const existing = components[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(moved)) {
      throw new Error(`components.schemas.${name} would mean two things`);
    }
    components[name] = moved;
  }
  return rewriteRefs(rest) as JsonObject;
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(v),
    ]),
  );
}

/** A named type reads differently as an answer (codes normalized, defaults filled): its own name there. */
function outputSchemaOf(op: AnyOperation): JsonObject {
  const schema = jsonSchemaOf(op.output as z.ZodType, 'output');
  const defs = schema.$defs as Record<string, unknown> | undefined;
  if (!defs) return schema;
  const renamed = JSON.stringify(schema).replace(/#\/\$defs\/(\w+)/g, '#/$defs/$1Answer');
  const out = JSON.parse(renamed) as JsonObject;
  out.$defs = Object.fromEntries(Object.entries(out.$defs as JsonObject).map(([k, v]) => [`${k}Answer`, v]));
  return out;
}

function operationObject(op: AnyOperation, tag: string, components: Record<string, unknown>): JsonObject {
  const input = hoist(jsonSchemaOf(op.input, 'input'), components) as {
    properties?: Record<string, JsonObject>;
    required?: string[];
  };
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
  const example = op.example;
  const success: JsonObject = {
    description: op.successStatus === 201 ? 'Created' : 'OK',
    headers: {
      'X-Request-Id': ref('X-Request-Id'),
      RateLimit: ref('RateLimit'),
      'RateLimit-Policy': ref('RateLimit-Policy'),
      ...(op.successStatus === 201 && { Location: ref('Location') }),
    },
    content: {
      'application/json': {
        schema: hoist(outputSchemaOf(op), components),
        example: example.output,
      },
    },
  };
  const responses: JsonObject = { [String(op.successStatus)]: success };
  for (const code of errorCodesOf(op)) {
    const status = String(errorCatalogue[code].status);
    const existing = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: existing ? `${existing.description}, ${code}` : code,
      headers: {
        'X-Request-Id': ref('X-Request-Id'),
        ...(status === '429' && {
          RateLimit: ref('RateLimit'),
          'RateLimit-Policy': ref('RateLimit-Policy'),
          'Retry-After': ref('Retry-After'),
        }),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  const operation: JsonObject = {
    operationId: op.name,
    summary: op.title,
    description: `${op.description}\n\nErrors: ${errorCodesOf(op).join(', ')}.`,
    tags: [tag],
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
    const bodyExample = Object.fromEntries(Object.entries(example.input).filter(([k]) => !op.pathParams.includes(k)));
    operation.requestBody = {
      required: bodyRequired.length > 0,
      content: {
        'application/json': {
          schema: { type: 'object', additionalProperties: false, properties: bodyProps, required: bodyRequired },
          example: bodyExample,
        },
      },
    };
  }
  for (const parameter of parameters) {
    const value = example.input[parameter.name as string];
    if (value !== undefined) parameter.example = value;
  }
  return operation;
}

/** An upload's body: one image or file (raw or a one-file form), or a form of several files; fields beside them. */
function uploadBody(kind: 'image' | 'file' | 'multipart', fields: Record<string, JsonObject>): JsonObject {
  const binary = { type: 'string', contentMediaType: 'application/octet-stream' };
  const files = kind === 'multipart' ? { files: { type: 'array', items: binary } } : { file: binary };
  const form = { 'multipart/form-data': { schema: { type: 'object', properties: { ...files, ...fields } } } };
  const raw = { image: { 'image/*': { schema: binary } }, file: { 'application/octet-stream': { schema: binary } } };
  return { required: true, content: kind === 'multipart' ? form : { ...raw[kind], ...form } };
}

/** The OpenAPI 3.1 document, derived from the same declarations as the routes and tools. */
export function buildOpenApi(registry: Registry, serverUrl: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const schemas: Record<string, unknown> = { ErrorEnvelope: errorEnvelope };
  for (const op of registry.operations) {
    const item = paths[op.path] ?? {};
    item[op.method.toLowerCase()] = operationObject(op, registry.tagOf(op).name, schemas);
    paths[op.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creator API for travel guides',
      version: API_VERSION,
      description: 'Every operation is also an MCP tool of the same name and input at /mcp (the uploads aside).',
      license: { name: 'Proprietary' },
    },
    servers: [{ url: `${serverUrl}${API_PREFIX}` }],
    security: [{ bearer: [] }, { apiKey: [] }],
    tags: registry.tags.map(({ name, description }) => ({ name, description })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_service_…' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      headers,
      schemas,
    },
    paths,
  };
}
