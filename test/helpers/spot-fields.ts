import assert from 'node:assert/strict';
import { before, describe } from 'node:test';
import { assertError, assertOk } from './answers.ts';
import { type Api, type ServerSuite, type Transport, transports, useServer } from './api.ts';
import { type TestDialect, testDialects } from './dialects.ts';
import { guideWithSpot, type SpotIds } from './fixtures.ts';
import type { Refusal } from './refusals.ts';

/** A server with a guide and one spot per transport, for tests of a field type written to spots. */
export interface FieldSuite extends ServerSuite {
  readonly dialect: TestDialect;
  /** Each transport's guide and spot; set once the suite's `before` ran. */
  readonly ids: Record<Transport, SpotIds>;
}

/**
 * The preamble of a field type's suite: for each test dialect a block "`title` on spots (dialect)"
 * with its server, a block "over rest|mcp" per transport filled by `eachTransport`, then what
 * `acrossTransports` adds (tests comparing the transports).
 */
export async function describeOnSpots(
  title: string,
  guideName: string,
  eachTransport: (suite: FieldSuite, t: Transport) => void,
  acrossTransports?: (suite: FieldSuite) => void,
): Promise<void> {
  for (const { dialect, skip } of await testDialects()) {
    describe(`${title} on spots (${dialect})`, { skip }, () => {
      const server = useServer({ dialect });
      const ids = {} as Record<Transport, SpotIds>;
      before(async () => {
        for (const t of transports) ids[t] = await guideWithSpot(server.apis[t], guideName);
      });
      const suite: FieldSuite = {
        get h() {
          return server.h;
        },
        apis: server.apis,
        dialect,
        ids,
      };
      for (const t of transports) describe(`over ${t}`, () => eachTransport(suite, t));
      acrossTransports?.(suite);
    });
  }
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
