import assert from 'node:assert/strict';
import { assertOk } from '../helpers/answers.ts';
import { type Api, guideOf } from '../helpers/api.ts';

/**
 * The calls the property suites make through one transport's client; `apiOf` is read at each call,
 * because a suite's clients are made in its `before`.
 */
export function propertyCalls(apiOf: () => Api) {
  const call = (name: string, args: Record<string, unknown> = {}) => apiOf().call(name, args);
  return {
    call,
    async create(productId: string, args: Record<string, unknown>) {
      const a = await call('create_property', { productId, ...args });
      assertOk(a, 201);
      return a.body;
    },
    /** The guide's property schema version, as get_guide reads it. */
    async version(productId: string): Promise<number> {
      return (await guideOf(apiOf(), productId)).propertySchemaVersion;
    },
    async listed(productId: string) {
      const a = await call('list_properties', { productId });
      assertOk(a);
      assert.equal(a.body.productId, productId);
      return a.body;
    },
  };
}
