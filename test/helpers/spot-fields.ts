import assert from 'node:assert/strict';
import { before } from 'node:test';
import { assertError, assertOk } from './answers.ts';
import { type Api, type DialectSuite, describeOverTransports, type Transport, transports } from './api.ts';
import { guideWithSpot, type SpotIds } from './fixtures.ts';
import type { Refusal } from './refusals.ts';

/** A server with a guide and one spot per transport, for tests of a field type written to spots. */
export interface FieldSuite extends DialectSuite {
  /** Each transport's guide and spot; set once the suite's `before` ran. */
  readonly ids: Record<Transport, SpotIds>;
}

/**
 * The preamble of a field type's suite: describeOverTransports titled "`title` on spots", each
 * transport with a guide holding one spot.
 */
export function describeOnSpots(
  title: string,
  guideName: string,
  eachTransport: (suite: FieldSuite, t: Transport) => void,
  acrossTransports?: (suite: FieldSuite) => void,
): Promise<void> {
  return describeOverTransports(`${title} on spots`, eachTransport, acrossTransports, (server) => {
    const ids = {} as Record<Transport, SpotIds>;
    before(async () => {
      for (const t of transports) ids[t] = await guideWithSpot(server.apis[t], guideName);
    });
    return Object.assign(server, { ids });
  });
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
