import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { formPartsOnBody } from '../../src/studio/web/form-parts.ts';

const LIMITS = { fileSize: 64, files: 1 };

/** The plugin's own `attachFieldsToBody: 'keyValues'`, as the studio registered it before. */
async function withPluginOption(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: LIMITS,
    onFile: async (part) => {
      (part as unknown as { value: unknown }).value = { bytes: await part.toBuffer(), filename: part.filename };
    },
  });
  return app;
}

/** The studio's way now: the plugin without the option, the fields put on the body by formPartsOnBody. */
async function withHook(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(multipart, { limits: LIMITS });
  app.addHook('preValidation', formPartsOnBody);
  return app;
}

const BOUNDARY = 'form-parts-boundary';

type Part = { name: string; value: string } | { name: string; filename: string; bytes: string };

function form(parts: Part[]): string {
  const body = parts.map((part) =>
    'filename' in part
      ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${part.bytes}\r\n`
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
  );
  return `${body.join('')}--${BOUNDARY}--\r\n`;
}

/** What the route sees as its body (files' bytes as text), or the status of the refusal. */
async function bodySeen(app: FastifyInstance, payload: string, type = `multipart/form-data; boundary=${BOUNDARY}`) {
  app.post('/form', async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    return JSON.stringify(body, (_key, value) =>
      value && typeof value === 'object' && value.type === 'Buffer' ? Buffer.from(value.data).toString() : value,
    );
  });
  const reply = await app.inject({ method: 'POST', url: '/form', headers: { 'content-type': type }, payload });
  await app.close();
  return reply.statusCode === 200 ? reply.body : reply.statusCode;
}

describe('formPartsOnBody puts a form on the body as the plugin option did', () => {
  const cases: [string, string, string?][] = [
    [
      'text fields',
      form([
        { name: '_csrf', value: 'token' },
        { name: 'format', value: 'kml' },
      ]),
    ],
    [
      'a repeated name',
      form([
        { name: 'tag', value: 'a' },
        { name: 'tag', value: 'b' },
        { name: 'x', value: '' },
      ]),
    ],
    [
      'a file beside fields',
      form([
        { name: 'format', value: 'gpx' },
        { name: 'file', filename: 'a.gpx', bytes: '<gpx/>' },
      ]),
    ],
    [
      'an empty file part',
      form([
        { name: 'file', filename: '', bytes: '' },
        { name: 'format', value: 'csv' },
      ]),
    ],
    ['no parts', `--${BOUNDARY}--\r\n`],
    ['a file over the limit', form([{ name: 'file', filename: 'big.csv', bytes: 'x'.repeat(100) }])],
    [
      'two files where one is allowed',
      form([
        { name: 'file', filename: 'a.csv', bytes: 'a' },
        { name: 'file', filename: 'b.csv', bytes: 'b' },
      ]),
    ],
    ['a form, not multipart', 'format=kml', 'application/x-www-form-urlencoded'],
  ];
  for (const [what, payload, type] of cases) {
    it(what, async () => {
      assert.deepEqual(
        await bodySeen(await withHook(), payload, type),
        await bodySeen(await withPluginOption(), payload, type),
      );
    });
  }
});
