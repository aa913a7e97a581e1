import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { AnyOperation } from '../../src/core/operation.ts';
import type { Database } from '../../src/db/tables.ts';
import { minimalArchive } from './archives.ts';

type Call = (op: AnyOperation, input: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * A REST-only upload played from its example: its path's fields in the path, the others as form
 * fields, and as many generated photos as the example answered (one unless it shows a `count`), or
 * for a file upload a KMZ's first bytes under the example's file name.
 */
export async function uploadExample(
  baseUrl: string,
  key: string,
  op: AnyOperation,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const res = await uploadPhotos(baseUrl, key, op, input);
  assert.equal(res.status, op.successStatus, `${op.name}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The upload itself, its status and headers kept. */
export async function uploadPhotos(baseUrl: string, key: string, op: AnyOperation, input: Record<string, unknown>) {
  assert.ok(op.example && op.restOnly, `${op.name} is a REST-only upload with an example`);
  // The one upload that takes no photo: a guide archive, the smallest there is.
  if (op.name === 'import_guide') return uploadArchive(baseUrl, key, minimalArchive());
  const form = new FormData();
  // A list or an object goes as its JSON text, as a client sends it in one form field.
  for (const [name, value] of Object.entries(input)) {
    if (op.pathParams.includes(name)) continue;
    form.append(name, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name])));
  if (op.body.kind === 'file') {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(60)]);
    form.append('file', new Blob([zip]), String(op.example.output.filename ?? 'file'));
  }
  const count = op.body.kind === 'file' ? 0 : Number(op.example.output.count ?? 1);
  for (let i = 0; i < count; i++) {
    const background = { r: 40 + 30 * i, g: 120, b: 90 };
    const bytes = await sharp({ create: { width: 320, height: 213, channels: 3, background } })
      .jpeg()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `photo-${i + 1}.jpg`);
  }
  const headers = { authorization: `Bearer ${key}` };
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** import_guide with the archive as the raw body. */
export async function uploadArchive(baseUrl: string, key: string, zip: Uint8Array) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/zip' };
  const res = await fetch(`${baseUrl}/guides/import`, { method: 'POST', headers, body: new Uint8Array(zip) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Plays the declared examples as one story, in registry order with deletions last, so that every
 * operation runs on what the earlier ones made. The examples quote the ids of the server they were
 * written on: each id an answer shows is mapped to the id this server gave, and inputs are sent
 * with ids mapped. An operation without an example fails: new tools are covered by declaring one.
 */
export async function exampleStory(
  operations: readonly AnyOperation[],
  call: Call,
  ids = new Map<string, string>(),
  studio?: (op: AnyOperation, input: Record<string, unknown>) => Promise<void>,
): Promise<Map<string, string>> {
  // The reads run again before the deletions, once the guide has its bbox, areas, spots and places.
  const ordered = [
    ...operations.filter((op) => !op.destructive),
    ...operations.filter((op) => op.readOnly),
    ...operations.filter((op) => op.destructive),
  ];
  for (const op of ordered) {
    assert.ok(op.example, `${op.name} declares no example: add a realistic { input, output }`);
    const input = mapIds(op.example.input, ids) as Record<string, unknown>;
    // What only the creator's studio does (putting the guide on sale) happens where the story needs it.
    await studio?.(op, input);
    const answer = await call(op, input);
    learnIds(op.example.output, answer, ids);
  }
  return ids;
}

/** The operations in the story's order: deletions last, so that each example finds what it names. */
export function deletionsLast(operations: readonly AnyOperation[]): AnyOperation[] {
  return [...operations.filter((op) => !op.destructive), ...operations.filter((op) => op.destructive)];
}

/** An operation's example input with the ids this server gave. */
export function exampleInput(op: AnyOperation, ids: Map<string, string>): Record<string, unknown> {
  assert.ok(op.example, `${op.name} declares no example`);
  return mapIds(op.example.input, ids) as Record<string, unknown>;
}

/** An id as the examples quote them: a short prefix per kind, an underscore, the random part. */
export const ID = /^[a-z]{2,4}_[A-Za-z0-9_-]{8,}$/;

function mapIds(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => mapIds(v, ids));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        // An editor's expectedUpdatedAt is the updatedAt this server answered for that row.
        if (k === 'expectedUpdatedAt' && typeof v === 'number') return [k, Number(ids.get(`@${v}`) ?? v)];
        return [ids.get(k) ?? k, mapIds(v, ids)];
      }),
    );
  }
  return value;
}

/** Walks the example's answer beside the real one and notes which id became which. */
function learnIds(example: unknown, real: unknown, ids: Map<string, string>): void {
  if (typeof example === 'string' && typeof real === 'string') {
    if (ID.test(example) && example !== real && !ids.has(example)) ids.set(example, real);
  } else if (Array.isArray(example) && Array.isArray(real)) {
    example.forEach((item, i) => {
      learnIds(item, real[i], ids);
    });
  } else if (typeof example === 'object' && example !== null && typeof real === 'object' && real !== null) {
    for (const [k, v] of Object.entries(example)) {
      const answered = (real as Record<string, unknown>)[k];
      if (k === 'updatedAt' && typeof v === 'number' && typeof answered === 'number')
        ids.set(`@${v}`, String(answered));
      else learnIds(v, answered, ids);
    }
  }
}

/** The studio's part of the story: the guide goes on sale before its changes are published. */
export function studioFor(db: Kysely<Database>) {
  return async (op: AnyOperation, input: Record<string, unknown>): Promise<void> => {
    if (op.name !== 'publish_changes') return;
    await db.updateTable('guides').set({ status: 'published' }).where('id', '=', String(input.productId)).execute();
  };
}
