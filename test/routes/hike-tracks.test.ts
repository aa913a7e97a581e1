import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { generateHike, toGpx } from '../helpers/generated-track.ts';
import { rest } from '../helpers/http.ts';

/** A 6 km loop logged every second: about 5,800 points, over the 2,000 that are stored. */
const walk = generateHike({ lengthKm: 6, seed: 11 });
const walkGpx = toGpx(walk.points, 2);

const figureWarning = (warnings: string[] | undefined, field: string) =>
  (warnings ?? []).some((w) => w.startsWith(`${field} `) && w.includes('differs from the track'));

for (const { dialect, skip } of await testDialects()) {
  describe(`hike tracks through create_hike and update_hike (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const { apis } = suite;

    it('the generated track has at least 5,000 points', () => {
      assert.ok(walk.points.length >= 5000, `${walk.points.length} points`);
    });

    for (const t of transports) {
      it(`a GPX file of ${walk.points.length} points: measured on all of them, stored simplified (${t})`, async () => {
        const productId = await newGuide(apis[t], `${t} GPX`);
        const a = await apis[t].call('create_hike', { productId, name: 'Watch export', track: { gpx: walkGpx } });
        assertOk(a, 201);
        const figures = a.body.trackFigures;
        assert.equal(figures.pointCount, walk.points.length);
        assert.ok(Math.abs(figures.distanceKm - walk.truth.distanceKm) / walk.truth.distanceKm < 0.05, figures);
        assert.ok(Math.abs(figures.gainM - walk.truth.gainM) / walk.truth.gainM < 0.1, figures);
        assert.equal(a.body.distanceKm, null, "the track's figures never fill the creator's");
        assert.ok(
          a.body.warnings?.some((w: string) => w.includes('were simplified to')),
          a.body.warnings,
        );
        const listed = await apis[t].call('list_hikes', { productId, includeTrack: true });
        const line = listed.body.hikes[0].track;
        assert.equal(line.type, 'LineString');
        assert.ok(line.coordinates.length <= 2000 && line.coordinates.length > 100, `${line.coordinates.length}`);
        assert.deepEqual(line.coordinates[0], walk.points[0]);
        assert.deepEqual(line.coordinates.at(-1), walk.points.at(-1));
        assert.ok(line.coordinates.every((p: number[]) => p.length === 3));
        const short = await apis[t].call('list_hikes', { productId });
        assert.equal(short.body.hikes[0].track, undefined);
        assert.deepEqual(short.body.hikes[0].trackFigures, figures);
      });
    }

    it('figures off by more than a fifth are kept with a warning each; close ones are not flagged', async () => {
      const { rest: api } = apis;
      const productId = await newGuide(api, 'Figures');
      const track = { points: walk.points };
      const off = await api.call('create_hike', {
        productId,
        name: 'Off',
        track,
        distanceKm: walk.truth.distanceKm * 1.5,
        gainM: Math.round(walk.truth.gainM / 2),
        descentM: Math.round(walk.truth.descentM),
      });
      assertOk(off, 201);
      assert.equal(off.body.distanceKm, walk.truth.distanceKm * 1.5);
      assert.ok(figureWarning(off.body.warnings, 'distanceKm'), off.body.warnings);
      assert.ok(figureWarning(off.body.warnings, 'gainM'));
      assert.ok(!figureWarning(off.body.warnings, 'descentM'));
      // Figures sent later are checked against the stored track's figures.
      const later = await api.call('update_hike', { hikeId: off.body.hikeId, descentM: 10_000 });
      assert.ok(figureWarning(later.body.warnings, 'descentM'), later.body.warnings);
      const unrelated = await api.call('update_hike', { hikeId: off.body.hikeId, grade: 'T2' });
      assert.equal(unrelated.body.warnings, undefined, 'a write that sends neither track nor figures is not nagged');
      const close = await api.call('create_hike', {
        productId,
        name: 'Close',
        track,
        distanceKm: Math.round(walk.truth.distanceKm * 1.1 * 10) / 10,
      });
      assert.ok(!figureWarning(close.body.warnings, 'distanceKm'), close.body.warnings);
    });

    it('malformed GPX is invalid_request at track.gpx, and nothing is written', async () => {
      for (const t of transports) {
        const productId = await newGuide(apis[t], `${t} bad GPX`);
        const hike = (await apis[t].call('create_hike', { productId, name: 'Keep' })).body;
        const broken = walkGpx.slice(0, 5000);
        assertError(
          await apis[t].call('create_hike', { productId, name: 'Bad', track: { gpx: broken } }),
          'invalid_request',
          'track.gpx',
        );
        assertError(
          await apis[t].call('update_hike', { hikeId: hike.hikeId, name: 'Changed', track: { gpx: '<gpx><trk>' } }),
          'invalid_request',
          'track.gpx',
        );
        const listed = (await apis[t].call('list_hikes', { productId })).body;
        assert.deepEqual(
          listed.hikes.map((h: any) => h.name),
          ['Keep'],
        );
      }
    });

    it('a full 30 km day at 1 Hz (about 2.7 MB of GPX) arrives over REST; over MCP it is refused clearly', async () => {
      const day = toGpx(generateHike({ lengthKm: 30, seed: 3 }).points);
      assert.ok(day.length > 2 * 1024 * 1024, `${day.length} characters`);
      const productId = await newGuide(apis.rest, 'Long day');
      const a = await apis.rest.call('create_hike', { productId, name: 'Long day', track: { gpx: day } });
      assertOk(a, 201);
      assert.ok(a.body.trackFigures.pointCount > 20_000);
      const hikeId = a.body.hikeId;
      assertOk(await apis.rest.call('update_hike', { hikeId, track: { gpx: day } }));

      const message = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'update_hike', arguments: { hikeId, track: { gpx: day } } },
      };
      const res = await fetch(suite.h.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${suite.h.alice.writeKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(message),
      });
      assert.equal(res.status, 413);
      const body = (await res.json()) as any;
      assert.equal(body.error.code, 'payload_too_large');
      assert.match(body.error.message, /MCP message is over the 2 MB limit/);
      assert.match(body.error.message, /REST/);

      const tooBig = 'x'.repeat(8 * 1024 * 1024);
      const over = await rest(suite.h.baseUrl, suite.h.alice.writeKey, 'PATCH', `/hikes/${hikeId}`, {
        track: { gpx: tooBig },
      });
      assert.equal(over.status, 413);
      assert.match(over.body.error.message, /over the 8 MB limit/);
      const other = await rest(suite.h.baseUrl, suite.h.alice.writeKey, 'POST', `/guides/${productId}/spots`, {
        name: 'Big',
        description: 'x'.repeat(3 * 1024 * 1024),
      });
      assert.equal(other.status, 413, 'other operations keep the 2 MB limit');
      assert.match(other.body.error.message, /over the 2 MB limit/);
    });
  });
}
