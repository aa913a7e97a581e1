import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contentDisposition } from '../../src/transports/downloads.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, noRateLimits, transports } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { putOnSale, saleGuide } from '../helpers/sale-guide.ts';
import { download, kmlFeatures } from './read-back.ts';

const FIFTEEN_MINUTES = 15 * 60_000;

/** An export's download address, checked to answer its file now. */
async function addressOf(api: Api, args: Record<string, unknown>): Promise<string> {
  const answer = await api.call('export_guide', args);
  assertOk(answer);
  assert.equal((await download(answer.body.url)).status, 200, 'a new address downloads');
  return answer.body.url as string;
}

/** The status and error code a download address answers. */
async function refusedDownload(url: string): Promise<{ status: number; code: unknown }> {
  const file = await download(url);
  return { status: file.status, code: file.status === 200 ? undefined : JSON.parse(file.text).error?.code };
}

/** The token's character at `at` changed to another of the alphabet: still well-formed, no longer sealed. */
function changedAt(url: string, at: number): string {
  const slash = url.lastIndexOf('/') + 1;
  const token = url.slice(slash);
  const c = token[at] === 'A' ? 'B' : 'A';
  return `${url.slice(0, slash)}${token.slice(0, at)}${c}${token.slice(at + 1)}`;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`export_guide: live or working, and who a download serves (${dialect})`, { skip }, () => {
    let h: Harness;
    let writer: Api;
    before(async () => {
      h = await startServer({ dialect, env: noRateLimits });
      writer = apiFor(h, 'rest', h.alice.writeKey);
    });
    after(async () => {
      await writer?.close();
      await h?.close();
    });

    for (const t of transports) {
      it(`${t}: from live is what buyers have; working is the copy being edited, with its notes`, async () => {
        const sale = await saleGuide(h, writer, `Live or working over ${t}`);
        await putOnSale(h, sale.productId);
        const bled = sale.spotIds.bled as string;
        const edited = { spotId: bled, name: 'Lake Bled & its island 🏝️', reviewNotes: 'Ask the boatmen' };
        assertOk(await writer.call('update_spot', edited));
        const api = apiFor(h, t, h.alice.readKey);
        try {
          const of = async (from: string) => {
            const answer = await api.call('export_guide', { productId: sale.productId, format: 'geojson', from });
            assertOk(answer);
            assert.equal(answer.body.from, from);
            const fc = JSON.parse((await download(answer.body.url)).text);
            return { answer: answer.body, bled: fc.features.find((f: any) => f.id === bled) };
          };
          const live = await of('live');
          const working = await of('working');
          assert.equal(live.bled.properties.name, 'Lake Bled', 'live: the name buyers have');
          assert.equal(working.bled.properties.name, edited.name, 'working: the name as edited');
          assert.equal(live.bled.properties.reviewNotes, undefined, 'live: no reviewer-only field');
          assert.equal(working.bled.properties.reviewNotes, 'Ask the boatmen');
          assert.doesNotMatch(live.answer.fileName, /-working\.geojson$/);
          assert.match(working.answer.fileName, /-working\.geojson$/);
          const kml = await api.call('export_guide', { productId: sale.productId, format: 'kml', from: 'live' });
          assertOk(kml);
          const names = kmlFeatures((await download(kml.body.url)).text).map((f) => f.properties.name);
          assert.deepEqual(names.sort(), ['Lake Bled', 'Lake Bohinj', 'Vintgar Gorge']);
        } finally {
          await api.close();
        }
      });

      it(`${t}: a guide never published has no live export, nor an archive of it`, async () => {
        const productId = await newGuide(writer, `Draft over ${t}`);
        const api = apiFor(h, t, h.alice.readKey);
        try {
          const live = await api.call('export_guide', { productId, format: 'kml', from: 'live' });
          assertError(live, 'invalid_request', 'from');
          const archive = await api.call('export_guide', { productId, format: 'archive', from: 'live' });
          assertError(archive, 'invalid_request', 'from');
          assertError(await api.call('export_guide', { productId, format: 'shp' }), 'invalid_argument');
        } finally {
          await api.close();
        }
      });

      it(`${t}: another creator's guide answers 404 like a missing one`, async () => {
        const productId = await newGuide(writer, `Alice's only, over ${t}`);
        const bob = apiFor(h, t, h.bob.readKey);
        try {
          const theirs = await bob.call('export_guide', { productId, format: 'gpx' });
          const missing = await bob.call('export_guide', { productId: 'gd_doesNotExist00', format: 'gpx' });
          assertError(theirs, 'not_found');
          assertError(missing, 'not_found');
        } finally {
          await bob.close();
        }
      });

      it(`${t}: an address expires after 15 minutes; a made-up or changed one never worked`, async () => {
        const productId = await newGuide(writer, `Expiring over ${t}`);
        const api = apiFor(h, t, h.alice.readKey);
        const start = h.clock.now();
        try {
          const url = await addressOf(api, { productId, format: 'geojson' });
          const token = url.slice(url.lastIndexOf('/') + 1);
          assert.ok(token.length >= 43, 'at least 256 bits of token');
          h.clock.set(start + FIFTEEN_MINUTES - 1);
          assert.equal((await download(url)).status, 200, 'still works a moment before expiry');
          h.clock.set(start + FIFTEEN_MINUTES);
          assert.deepEqual(await refusedDownload(url), { status: 404, code: 'not_found' }, 'expired');
          h.clock.set(start);
          const fresh = await addressOf(api, { productId, format: 'geojson' });
          for (const at of [0, 20, token.length - 1]) {
            assert.deepEqual(await refusedDownload(changedAt(fresh, at)), { status: 404, code: 'not_found' });
          }
          const base = url.slice(0, url.lastIndexOf('/') + 1);
          for (const madeUp of ['A'.repeat(43), 'x', '..%2F..%2Fetc%2Fpasswd', 'B'.repeat(2000)]) {
            assert.deepEqual(await refusedDownload(base + madeUp), { status: 404, code: 'not_found' }, madeUp);
          }
        } finally {
          h.clock.set(start);
          await api.close();
        }
      });

      it(`${t}: an address ends with the key that made it, and serves its guide only while the creator has it`, async () => {
        const productId = await newGuide(writer, `Revoked over ${t}`);
        const made = await h.keys.create({ creatorId: h.alice.creatorId, scope: 'read', publish: false });
        const api = apiFor(h, t, made.key);
        try {
          const url = await addressOf(api, { productId, format: 'kml' });
          const other = await addressOf(api, { productId, format: 'gpx' });
          assert.equal(await h.keys.revoke(made.keyId), true);
          assert.deepEqual(await refusedDownload(url), { status: 404, code: 'not_found' }, 'its key is revoked');
          const url2 = await addressOf(writer, { productId, format: 'kml' });
          // The guide moves to Bob (as a transfer by the service's staff would): Alice's address no longer serves it.
          await h.store.db
            .updateTable('guides')
            .set({ creator_id: h.bob.creatorId })
            .where('id', '=', productId)
            .execute();
          assert.deepEqual(await refusedDownload(url2), { status: 404, code: 'not_found' }, 'no longer her guide');
          assert.equal((await refusedDownload(other)).status, 404);
        } finally {
          await api.close();
        }
      });
    }
  });
}

describe('the name a download is saved under', () => {
  it('keeps any name whole in filename*, and an ASCII fallback that can neither break the header nor climb', () => {
    const header = contentDisposition('Café "Zöe" / ..\\bar; 🏔️.kml');
    assert.equal(
      header,
      `attachment; filename="Caf_ _Z_e_ _ .._bar_ ___.kml"; filename*=UTF-8''Caf%C3%A9%20%22Z%C3%B6e%22%20%2F%20..%5Cbar%3B%20%F0%9F%8F%94%EF%B8%8F.kml`,
    );
    assert.equal(decodeURIComponent(header.split("UTF-8''")[1] as string), 'Café "Zöe" / ..\\bar; 🏔️.kml');
  });
});
