import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { rest } from '../helpers/http.ts';
import { phoneJpeg } from '../helpers/images.ts';
import { uploadForm, uploadRaw } from '../helpers/uploads.ts';

/** Keys that name members of Object.prototype: a lookup that is not of own properties finds those. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

/** Creator text as keys never meets Object.prototype: readiness, conversions and inputs see own keys only. */
for (const { dialect, skip } of await testDialects()) {
  describe(`keys that name Object.prototype's members (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const call = (name: string, args: Record<string, unknown> = {}) => suite.apis[t].call(name, args);

        it('a required property keyed "constructor" counts as empty until filled, and its value reads back', async () => {
          const productId = await newGuide(suite.apis[t], `${t} constructor`);
          assertOk(
            await call('create_property', {
              productId,
              key: 'constructor',
              label: 'Builder',
              kind: 'shortLabel',
              required: true,
            }),
            201,
          );
          const spot = await call('create_spot', { productId, name: 'Old bridge' });
          assertOk(spot, 201);
          const empty = (await call('get_guide_readiness', { productId })).body;
          const field = (f: { code: string; where: { field: string } }) => `${f.code} ${f.where.field}`;
          assert.ok(
            empty.findings.map(field).includes('required_property_empty customValues.constructor'),
            JSON.stringify(empty.findings),
          );
          assertOk(await call('update_spot', { spotId: spot.body.spotId, customValues: { constructor: 'Romans' } }));
          const read = await call('get_spot', { spotId: spot.body.spotId });
          assert.deepEqual(read.body.customValues, { constructor: 'Romans' });
          const filled = (await call('get_guide_readiness', { productId })).body;
          assert.ok(!filled.findings.some((f: { code: string }) => f.code === 'required_property_empty'));
        });

        it('converting a "constructor" property changes only the spots that hold a value', async () => {
          const productId = await newGuide(suite.apis[t], `${t} convert`);
          const made = await call('create_property', {
            productId,
            key: 'constructor',
            label: 'Builder',
            kind: 'singleSelect',
            options: [{ label: 'Romans' }, { label: 'Venetians' }],
          });
          assertOk(made, 201);
          const bare = await call('create_spot', { productId, name: 'Bare' });
          const held = await call('create_spot', { productId, name: 'Held', customValues: { constructor: 'romans' } });
          assertOk(held, 201);
          const converted = await call('convert_property', {
            propertyDefId: made.body.propertyDefId,
            toKind: 'checkbox',
          });
          assertOk(converted);
          assert.equal(converted.body.spotsChanged, 1);
          assert.deepEqual((await call('get_spot', { spotId: bare.body.spotId })).body.customValues, {});
          assert.deepEqual((await call('get_spot', { spotId: held.body.spotId })).body.customValues, {
            constructor: ['romans'],
          });
        });

        it('a spot value under a key no property has is refused naming it, whatever Object.prototype holds', async () => {
          const productId = await newGuide(suite.apis[t], `${t} unknown keys`);
          const spot = await call('create_spot', { productId, name: 'Quiet' });
          for (const key of PROTOTYPE_KEYS) {
            const refused = await call('update_spot', { spotId: spot.body.spotId, customValues: { [key]: 'x' } });
            // No field anywhere is named __proto__ (a shape error); the others are keys no property has.
            assertError(refused, key === '__proto__' ? 'invalid_argument' : 'invalid_request', `customValues.${key}`);
          }
          assert.deepEqual((await call('get_spot', { spotId: spot.body.spotId })).body.customValues, {});
        });
      });
    }

    it('REST: a query or body field named like a prototype member is an unknown field, not a clash', async () => {
      const h = suite.h;
      const productId = await newGuide(suite.apis.rest, 'Query keys');
      for (const key of PROTOTYPE_KEYS) {
        const query = await rest(h.baseUrl, h.alice.writeKey, 'GET', `/guides/${productId}?${key}=1`);
        assert.equal(query.status, 400, `?${key}: ${JSON.stringify(query.body)}`);
        assert.equal(query.body.error.code, 'invalid_argument');
        assert.match(query.body.error.message, new RegExp(key.replace(/_/g, '_')), 'names the field');
        assert.doesNotMatch(query.body.error.message, /given twice/);
        const body = await rest(h.baseUrl, h.alice.writeKey, 'PATCH', `/guides/${productId}`, `{"${key}":"x"}`);
        assert.equal(body.status, 400, `body ${key}: ${JSON.stringify(body.body)}`);
        assert.match(body.body.error.message, new RegExp(key), 'names the field');
      }
    });

    it('uploads: a content type or form field named like a prototype member is refused like any other', async () => {
      const h = suite.h;
      const productId = await newGuide(suite.apis.rest, 'Upload keys');
      const photo = await phoneJpeg();
      for (const type of ['constructor', 'tostring', '__proto__']) {
        const raw = await uploadRaw(h, h.alice.writeKey, photo, type, { productId });
        assert.equal(raw.status, 400, `${type}: ${JSON.stringify(raw.body)}`);
        const part = await uploadForm(h, h.alice.writeKey, '/media/upload', [{ bytes: photo, type }], { productId });
        assert.equal(part.status, 400, `part of type ${type}: ${JSON.stringify(part.body)}`);
        assert.match(part.body.error.message, /not a photo type we accept/);
      }
      for (const key of PROTOTYPE_KEYS) {
        const refused = await uploadForm(h, h.alice.writeKey, '/media/upload', [{ bytes: photo }], {
          productId,
          [key]: 'x',
        });
        assert.equal(refused.status, 400, `form field ${key}: ${JSON.stringify(refused.body)}`);
        assert.match(refused.body.error.message, /no field of this API has such a name/);
      }
      const listed = await suite.apis.rest.call('list_media', { productId });
      assert.equal(listed.body.count, 0, 'nothing was stored');
    });
  });
}
