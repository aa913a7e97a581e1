import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createRegistry } from '../../src/resources/index.ts';
import { jsonSchemaOf } from '../../src/transports/json-schema.ts';
import { buildOpenApi } from '../../src/transports/openapi.ts';
import { errorCodesOf, ownErrorsOf } from '../../src/transports/operation-errors.ts';
import { describeTool } from '../../src/transports/tool-list.ts';
import { useServer } from '../helpers/api.ts';
import { uploadPhotos } from '../helpers/example-story.ts';
import { rest } from '../helpers/http.ts';

const registry = createRegistry();
type Doc = {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, unknown> };
  tags: any[];
};
const doc = buildOpenApi(registry, 'http://127.0.0.1:8080') as unknown as Doc;

describe('the OpenAPI document tells the whole truth', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
  });

  it('names a license and describes one tag a resource', () => {
    assert.equal((doc as any).info.license.name, 'Proprietary');
    const names = new Set(doc.tags.map((t) => t.name));
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) for (const tag of op.tags) assert.ok(names.has(tag), tag);
    }
    for (const tag of doc.tags) assert.ok(tag.description.length > 10, tag.name);
  });

  it('lists for each operation the errors it can answer, as the reference does; the tool description names its own', () => {
    const price = doc.paths['/guides/{productId}/price']?.put;
    assert.match(price.responses['409'].description, /agreement_outdated/);
    assert.match(doc.paths['/spots/{spotId}']?.delete.responses['409'].description, /guide_sold/);
    const tool = (name: string) => describeTool(registry.get(name) as (typeof registry.operations)[number]).description;
    assert.match(tool('set_guide_price'), /Errors: .*agreement_outdated/);
    assert.doesNotMatch(
      tool('delete_spot'),
      /invalid_api_key|rate_limited/,
      'the codes every call answers are not repeated',
    );
    assert.match(tool('delete_spot'), /Errors: .*guide_sold/);
    assert.equal(doc.paths['/guides']?.post.responses['404'], undefined, 'create_guide uses no existing id');
    for (const op of registry.operations) {
      const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
      const codes = errorCodesOf(op);
      for (const code of op.errors) assert.ok(codes.includes(code), `${op.name} ${code}`);
      const described = Object.entries(documented.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([, r]: [string, any]) => r.description.split(', '));
      assert.deepEqual(described.sort(), [...codes].sort(), op.name);
      const own = ownErrorsOf(op);
      // The tool names its own codes but not_found, which any id can answer (the playbook says so).
      const named = own.filter((code) => code !== 'not_found');
      const line = named.length > 0 ? ` Errors: ${named.join(', ')}.` : '';
      if (!op.restOnly) assert.ok(describeTool(op).description.endsWith(line), op.name);
      if (!op.restOnly && named.length === 0) assert.doesNotMatch(describeTool(op).description, /Errors:/, op.name);
      for (const code of own) assert.ok(codes.includes(code), `${op.name} ${code}`);
      for (const [status, response] of Object.entries(documented.responses) as [string, any][]) {
        assert.ok(response.headers['X-Request-Id'], `${op.name} ${status} X-Request-Id`);
        if (status === '429') assert.ok(response.headers['Retry-After'], `${op.name} Retry-After`);
        if (Number(status) < 300) assert.ok(response.headers.RateLimit && response.headers['RateLimit-Policy']);
        if (status === '201') assert.ok(response.headers.Location, `${op.name} Location`);
      }
    }
    const details = (doc.components.schemas.ErrorEnvelope as any).properties.error.properties.details.properties;
    for (const field of ['path', 'issues', 'policy', 'limit', 'windowSeconds', 'blocking'])
      assert.ok(details[field], field);
  });

  it('hoists the shared field types into components.schemas', () => {
    for (const name of ['Fee', 'GuideLink', 'StatusNotice', 'Schedule', 'SourceRef', 'FeeAnswer']) {
      assert.ok(doc.components.schemas[name], name);
    }
    assert.doesNotMatch(JSON.stringify(doc), /#\/\$defs\//);
  });
});

describe('every operation has an example its schemas accept', () => {
  const ajv = new Ajv2020({ strict: false });
  for (const op of registry.operations) {
    it(op.name, () => {
      assert.ok(op.example, `${op.name} declares no example: add a realistic { input, output }`);
      const input = ajv.compile(jsonSchemaOf(op.input, 'input'));
      assert.ok(input(op.example.input), JSON.stringify(input.errors));
      assert.ok(op.input.safeParse(op.example.input).success, `${op.name}: the operation refuses its example input`);
      const output = ajv.compile(jsonSchemaOf(op.output, 'output'));
      assert.ok(output(op.example.output), JSON.stringify(output.errors));
      const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
      assert.deepEqual(documented.responses[op.successStatus].content['application/json'].example, op.example.output);
    });
  }
});

describe('every 201 answers Location, the address of what it created', () => {
  const s = useServer({});
  it('a created resource is read at its Location', async () => {
    const created = registry.operations.filter((op) => op.successStatus === 201);
    assert.ok(created.length >= 4);
    for (const op of created) assert.ok(op.location, `${op.name} answers 201 without a location`);
    const key = s.h.alice.writeKey;
    const guide = await rest(s.h.baseUrl, key, 'POST', '/guides', { name: 'Located' });
    const productId = guide.body.productId as string;
    const answers = [
      guide,
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/spots`, { name: 'Bled castle' }),
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/properties`, {
        label: 'Best time',
        kind: 'shortLabel',
      }),
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/facilities`, { kind: 'food', name: 'Kiosk' }),
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/chapters`, { name: 'Lakes' }),
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/routes`, { name: 'Bled to Bohinj' }),
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/hikes`, { name: 'Seven Lakes' }),
      await rest(s.h.baseUrl, key, 'POST', `/guides/${productId}/itineraries`, { name: 'Three days' }),
      ...(await Promise.all(
        ['upload_media', 'upload_media_batch', 'import_guide'].map(async (name) => {
          const op = registry.get(name);
          assert.ok(op);
          return uploadPhotos(s.h.baseUrl, key, op, { productId });
        }),
      )),
    ];
    assert.equal(answers.length, created.length, 'a test call for every 201 operation');
    for (const answer of answers) {
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const location = answer.headers.get('location') ?? '';
      assert.ok(location?.startsWith('/api/v1/'), String(location));
      const read = await rest(s.h.baseUrl, key, 'GET', location.slice('/api/v1'.length));
      assert.equal(read.status, 200, location);
      // A record of the guide shows its own id; a guide (made or imported) shows the productId it answered.
      const id =
        Object.entries(answer.body).find(([k]) => k.endsWith('Id') && k !== 'productId')?.[1] ?? answer.body.productId;
      assert.ok(JSON.stringify(read.body).includes(String(id)), `${location} shows ${id}`);
    }
  });
});
