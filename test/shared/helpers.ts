import assert from 'node:assert/strict';
import { before } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, type ServerSuite, type Transport, transports, useServer } from '../helpers/api.ts';
import type { TestDialect } from '../helpers/dialects.ts';
import { guideWithSpot, type SpotIds } from '../helpers/fixtures.ts';

/** A refusal case: the fields sent, the code, the exact path the message starts with. */
export interface Refusal {
  title: string;
  fields: Record<string, unknown>;
  code: 'invalid_argument' | 'invalid_request';
  path: string;
  hint?: RegExp;
}

/** The same refusal from create_spot and from update_spot; the update leaves the spot as it was. */
export async function assertWriteRefused(api: Api, ids: SpotIds, c: Refusal): Promise<void> {
  const before = await api.call('get_spot', { spotId: ids.spotId });
  assertOk(before);
  const words = { hint: c.hint, pathInDetails: true };
  const create = await api.call('create_spot', { productId: ids.productId, name: 'Refused', ...c.fields });
  assertError(create, c.code, c.path, words);
  assertError(await api.call('update_spot', { spotId: ids.spotId, ...c.fields }), c.code, c.path, words);
  const after = await api.call('get_spot', { spotId: ids.spotId });
  assert.deepEqual(after.body, before.body, 'a refused update changes nothing');
}

export interface FieldSuite extends ServerSuite {
  ids: Record<Transport, SpotIds>;
}

/**
 * For the enclosing suite: a server on `dialect`, a client per transport, and for each a guide
 * with one spot to write field values to. Registers the suite's `before` and `after`.
 */
export function useFieldServer(dialect: TestDialect, guideName: string): FieldSuite {
  const server = useServer({ dialect });
  const ids = {} as Record<Transport, SpotIds>;
  before(async () => {
    for (const t of transports) ids[t] = await guideWithSpot(server.apis[t], guideName);
  });
  return {
    get h() {
      return server.h;
    },
    apis: server.apis,
    ids,
  };
}
