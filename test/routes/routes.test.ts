import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';

/** A route with every field set, as create_route takes it. */
const fullRoute = {
  name: 'Bled to Bohinj by the lake road',
  mode: 'car',
  description: 'The lake road, with a stop at the gorge.',
  distanceKm: 20,
  durationMin: 35,
  track: {
    points: [
      [14.1146, 46.3683],
      [14.05, 46.33],
      [13.89, 46.28],
    ],
  },
  links: [{ kind: 'official', url: 'https://roads.example/bohinj' }],
  status: { state: 'partly_closed', until: '2027-01-31', note: 'Works near the tunnel' },
  fees: [{ label: 'Parking at the lake', amount: 10, currency: 'EUR', per: 'vehicle' }],
  sources: [{ title: 'Road authority notice' }],
  factsCheckedOn: '2026-10-01',
  reviewBy: '2027-05-01',
};

await describeOverTransports(
  'routes: create, list, update, delete',
  (suite, t) => {
    const { apis } = suite;
    let productId: string;
    before(async () => {
      productId = await newGuide(apis[t], `${t} routes`);
    });
    const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
    const list = async (extra: Record<string, unknown> = {}) => {
      const a = await call('list_routes', { productId, ...extra });
      assertOk(a);
      assert.equal(a.body.count, a.body.routes.length);
      return a.body.routes as any[];
    };

    it('create_route with only a name: 201 with every default', async () => {
      const a = await call('create_route', { productId, name: 'Ferry to the island' });
      assertOk(a, 201);
      const { routeId, createdAt, updatedAt, ...rest } = a.body;
      assert.match(routeId, /^rt_/);
      assert.equal(createdAt, suite.h.clock.now());
      assert.equal(updatedAt, createdAt);
      assert.deepEqual(rest, {
        productId,
        name: 'Ferry to the island',
        mode: null,
        description: null,
        distanceKm: null,
        durationMin: null,
        links: [],
        status: null,
        fees: [],
        sources: [],
        factsCheckedOn: null,
        reviewBy: null,
        trackFigures: null,
        spotKeys: [],
        facilities: [],
      });
    });

    it('create_route with every field reads back as sent, the line measured and stored', async () => {
      const a = await call('create_route', { productId, ...fullRoute });
      assertOk(a, 201);
      const { track, ...fields } = fullRoute;
      for (const [field, value] of Object.entries(fields)) assert.deepEqual(a.body[field], value, field);
      assert.equal(a.body.track, undefined, 'the answer leaves the line out');
      assert.equal(a.body.trackFigures.pointCount, 3);
      assert.ok(a.body.trackFigures.distanceKm > 15);
      assert.equal(a.body.trackFigures.gainM, null);
      const listed = (await list()).find((r) => r.routeId === a.body.routeId);
      assert.equal(listed.track, undefined, 'lists leave the line out unless asked');
      const withTrack = (await list({ includeTrack: true })).find((r) => r.routeId === a.body.routeId);
      assert.deepEqual(withTrack.track, { type: 'LineString', coordinates: track.points });
    });

    it('a route read back with its line can be sent back unchanged', async () => {
      const created = await call('create_route', { productId, ...fullRoute, name: 'Round trip' });
      const read = (await list({ includeTrack: true })).find((r) => r.routeId === created.body.routeId);
      const {
        routeId,
        productId: _p,
        trackFigures: _f,
        spotKeys: _s,
        facilities: _fa,
        createdAt: _c,
        updatedAt: _u,
        ...back
      } = read;
      const a = await call('update_route', { routeId, ...back });
      assertOk(a);
      const { track: _line, ...withoutLine } = read;
      assert.deepEqual({ ...a.body, updatedAt: 0 }, { ...withoutLine, updatedAt: 0 });
    });

    it('update_route: only the fields sent change; "" and null clear; arrays replace whole', async () => {
      const created = (await call('create_route', { productId, ...fullRoute, name: 'Patch me' })).body;
      const a = await call('update_route', {
        routeId: created.routeId,
        description: '',
        mode: null,
        factsCheckedOn: '',
        reviewBy: null,
        fees: [],
        track: null,
      });
      assertOk(a);
      assert.equal(a.body.description, null);
      assert.equal(a.body.mode, null);
      assert.equal(a.body.factsCheckedOn, null);
      assert.equal(a.body.reviewBy, null);
      assert.deepEqual(a.body.fees, []);
      assert.equal(a.body.trackFigures, null);
      assert.equal(a.body.name, 'Patch me');
      assert.deepEqual(a.body.links, fullRoute.links);
      assert.deepEqual(a.body.status, fullRoute.status);
      assert.equal(a.body.distanceKm, 20);
      const listed = (await list({ includeTrack: true })).find((r) => r.routeId === created.routeId);
      assert.equal(listed.track, undefined, 'track null removed the line');
    });

    it('updatedAt moves on every write, even within one millisecond', async () => {
      const created = (await call('create_route', { productId, name: 'Quick edits' })).body;
      const first = await call('update_route', { routeId: created.routeId, durationMin: 10 });
      const second = await call('update_route', { routeId: created.routeId, durationMin: 11 });
      assert.ok(first.body.updatedAt > created.updatedAt);
      assert.ok(second.body.updatedAt > first.body.updatedAt);
    });

    it('a name must say something; bounds are refused as invalid_request naming the field', async () => {
      const created = (await call('create_route', { productId, name: 'Bounds' })).body;
      const update = (args: Record<string, unknown>) => call('update_route', { routeId: created.routeId, ...args });
      assertError(await update({ name: '' }), 'invalid_request', 'name');
      assertError(await update({ name: '   ' }), 'invalid_request', 'name');
      assertError(await update({ name: 'x'.repeat(121) }), 'invalid_request', 'name');
      assertError(await update({ distanceKm: -1 }), 'invalid_request', 'distanceKm');
      assertError(await update({ durationMin: -5 }), 'invalid_request', 'durationMin');
      assertError(await update({ description: 'x'.repeat(5001) }), 'invalid_request', 'description');
      const links = Array.from({ length: 13 }, (_, i) => ({ kind: 'other', url: `https://x.example/${i}` }));
      assertError(await update({ links }), 'invalid_request', 'links');
      assertError(await update({ mode: 'teleport' }), 'invalid_argument', 'mode');
      assertError(await update({ reviewBy: '2026-02-30' }), 'invalid_request', 'reviewBy');
      assertError(await update({ track: { points: [[14, 46]] } }), 'invalid_request', 'track.points');
      assertError(await call('create_route', { productId }), 'invalid_argument', 'name');
      const after = (await list()).find((r) => r.routeId === created.routeId);
      assert.equal(after.updatedAt, created.updatedAt, 'refusals wrote nothing');
    });

    it('a track that disagrees with the distance given by more than a fifth is kept with a warning', async () => {
      const a = await call('create_route', { productId, ...fullRoute, name: 'Wrong figure', distanceKm: 5 });
      assertOk(a, 201);
      assert.equal(a.body.distanceKm, 5, 'the figure given stands');
      assert.ok(
        a.body.warnings?.some((w: string) => w.startsWith('distanceKm 5 km differs')),
        a.body.warnings,
      );
      const fine = await call('create_route', { productId, ...fullRoute, name: 'Right figure' });
      assert.equal(fine.body.warnings, undefined);
    });

    it('delete_route removes it for good; a hike id is pointed at delete_hike', async () => {
      const created = (await call('create_route', { productId, name: 'Gone soon' })).body;
      const a = await call('delete_route', { routeId: created.routeId });
      assertOk(a);
      assert.deepEqual(a.body, { ok: true, routeId: created.routeId, deleted: true });
      assert.equal(
        (await list()).find((r) => r.routeId === created.routeId),
        undefined,
      );
      assertError(await call('delete_route', { routeId: created.routeId }), 'not_found');
      const hike = (await call('create_hike', { productId, name: 'A hike' })).body;
      assertError(await call('delete_route', { routeId: hike.hikeId }), 'invalid_request', 'routeId');
      assertError(await call('update_route', { routeId: hike.hikeId, name: 'x' }), 'invalid_request', 'routeId');
      assertError(await call('update_hike', { hikeId: created.routeId, name: 'x' }), 'not_found');
      const route = (await call('create_route', { productId, name: 'A route' })).body;
      assertError(await call('delete_hike', { hikeId: route.routeId }), 'invalid_request', 'hikeId');
      assert.ok(!(await list()).some((r) => r.routeId === hike.hikeId), 'list_routes leaves hikes to list_hikes');
    });
  },
  (suite) => {
    const { apis } = suite;
    it('list_stale_notices covers routes with the reasons of spots and places', async () => {
      const { rest } = apis;
      const productId = await newGuide(rest, 'Stale routes');
      suite.h.clock.set('2027-06-01T10:00:00Z');
      try {
        const route = (await rest.call('create_route', { productId, ...fullRoute })).body;
        const a = await rest.call('list_stale_notices', { productId, olderThanDays: 180 });
        assertOk(a);
        const mine = a.body.notices.filter((n: any) => n.id === route.routeId);
        assert.deepEqual(
          mine.map((n: any) => [n.kind, n.field, n.reason, n.date]),
          [
            ['route', 'factsCheckedOn', 'not_checked_recently', '2026-10-01'],
            ['route', 'status', 'ended', '2027-01-31'],
            ['route', 'reviewBy', 'review_due', '2027-05-01'],
          ],
        );
        assert.equal(mine[0].name, fullRoute.name);
        const hike = await rest.call('create_hike', { productId, name: 'Not stale' });
        assert.ok(!a.body.notices.some((n: any) => n.id === hike.body.hikeId));
      } finally {
        suite.h.clock.set('2026-11-23T10:00:00Z');
      }
    });
  },
);
