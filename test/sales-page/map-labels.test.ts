import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { frameOf } from '../../src/resources/sales-page/map-frame.ts';
import { type Disc, type PlacedLabel, placeLabels, type Rect } from '../../src/resources/sales-page/map-labels.ts';
import { textWidth, twoLines } from '../../src/resources/sales-page/map-text.ts';
import { MADEIRA } from './madeira.ts';

const STYLE = { fontSize: 15, gap: 3, pad: 2 };
const WIDTH = 480;

const overlap = (a: Rect, b: Rect) => a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;

function meets(d: Disc, r: Rect): boolean {
  const dx = d.x - Math.max(r.minX, Math.min(d.x, r.maxX));
  const dy = d.y - Math.max(r.minY, Math.min(d.y, r.maxY));
  return dx * dx + dy * dy < d.r * d.r;
}

/** Every promise of the placer, checked on its answer: apart, inside, off every marker and obstacle. */
function assertPlacement(
  placed: readonly (PlacedLabel | null)[],
  markers: readonly Disc[],
  view: { width: number; height: number },
  obstacles: readonly Rect[] = [],
) {
  const boxes = placed.flatMap((p) => (p ? [p.box] : []));
  for (const [i, a] of boxes.entries()) {
    assert.ok(a.minX >= 0 && a.minY >= 0 && a.maxX <= view.width && a.maxY <= view.height, `label ${i} inside`);
    for (const b of boxes.slice(i + 1)) assert.ok(!overlap(a, b), `labels apart: ${JSON.stringify([a, b])}`);
    for (const m of markers) assert.ok(!meets(m, a), `label ${i} off marker ${JSON.stringify(m)}`);
    for (const o of obstacles) assert.ok(!overlap(a, o), `label ${i} off the obstacle`);
  }
  for (const p of placed) {
    if (!p) continue;
    for (const line of p.lines) {
      assert.ok(line.x >= p.box.minX && line.x + line.width <= p.box.maxX + 1e-9, 'each line within its box');
    }
  }
}

function madeiraMarkers() {
  const frame = frameOf(MADEIRA.region, MADEIRA.spots, WIDTH);
  return {
    frame,
    labels: MADEIRA.spots.map((s) => ({ text: s.name, marker: { x: frame.x(s.lon), y: frame.y(s.lat), r: 12 } })),
  };
}

test('Madeira: every name finds room; Pico Ruivo and Pico do Arieiro, 3 km apart, do not touch', () => {
  const { frame, labels } = madeiraMarkers();
  const placed = placeLabels(labels, frame, [], STYLE);
  assertPlacement(
    placed,
    labels.map((l) => l.marker),
    frame,
  );
  assert.deepEqual(
    placed.map((p) => p?.lines.map((l) => l.text).join(' ')),
    MADEIRA.spots.map((s) => s.name),
    'no label left out, none cut',
  );
});

test('a long name by the right edge goes left of its marker rather than off the map', () => {
  const view = { width: 480, height: 240 };
  const marker = { x: 440, y: 120, r: 12 };
  const [placed] = placeLabels([{ text: 'Levada do Caldeirão Verde', marker }], view, [], STYLE);
  assert.ok(placed);
  assert.ok(placed.box.maxX <= marker.x - marker.r, 'to the left');
  assertPlacement([placed], [marker], view);
});

test('two lines when one does not fit, and left out when nothing fits', () => {
  const view = { width: 140, height: 140 };
  const marker = { x: 70, y: 70, r: 12 };
  const [wrapped] = placeLabels([{ text: 'Levada do Caldeirão Verde', marker }], view, [], STYLE);
  assert.equal(wrapped?.lines.length, 2);
  assert.deepEqual(
    wrapped?.lines.map((l) => l.text),
    ['Levada do', 'Caldeirão Verde'],
  );
  assertPlacement([wrapped ?? null], [marker], view);
  const [none] = placeLabels([{ text: 'Averyveryverylongnamewithoutspaces', marker }], view, [], STYLE);
  assert.equal(none, null);
});

test('obstacles (the scale bar) are kept clear', () => {
  const view = { width: 300, height: 100 };
  const marker = { x: 60, y: 50, r: 12 };
  const scale = { minX: 70, minY: 40, maxX: 200, maxY: 60 };
  const [placed] = placeLabels([{ text: 'Pico Ruivo', marker }], view, [scale], STYLE);
  assert.ok(placed);
  assertPlacement([placed], [marker], view, [scale]);
});

test('a dense cluster: 40 spots within a few pixels, and 12 on one point', () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const view = { width: 480, height: 320 };
  const cluster = Array.from({ length: 40 }, (_, i) => ({
    text: `Spot number ${i + 1}`,
    marker: { x: 220 + random() * 60, y: 140 + random() * 50, r: 12 },
  }));
  const placed = placeLabels(cluster, view, [], STYLE);
  assertPlacement(
    placed,
    cluster.map((c) => c.marker),
    view,
  );
  assert.ok(
    placed.some((p) => p === null),
    'not all fit',
  );
  assert.ok(placed.filter(Boolean).length >= 5, 'the first ones get their names');
  assert.ok(placed[0], 'earlier labels win');

  const same = Array.from({ length: 12 }, (_, i) => ({ text: `Stop ${i + 1}`, marker: { x: 240, y: 160, r: 12 } }));
  const stacked = placeLabels(same, view, [], STYLE);
  assertPlacement(
    stacked,
    same.map((s) => s.marker),
    view,
  );
  assert.ok(stacked.filter(Boolean).length >= 4, `${stacked.filter(Boolean).length} of 12 on one point named`);
});

test('any set of markers and names: the promises hold (property)', () => {
  const name = fc.stringMatching(/^[A-Za-zÀ-ž' -]{1,40}$/).filter((s) => s.trim().length > 0);
  fc.assert(
    fc.property(
      fc.integer({ min: 120, max: 600 }),
      fc.integer({ min: 80, max: 600 }),
      fc.array(
        fc.record({
          x: fc.double({ min: 0, max: 1, noNaN: true }),
          y: fc.double({ min: 0, max: 1, noNaN: true }),
          text: name,
        }),
        {
          maxLength: 30,
        },
      ),
      (width, height, points) => {
        const view = { width, height };
        const labels = points.map((p) => ({ text: p.text, marker: { x: p.x * width, y: p.y * height, r: 12 } }));
        assertPlacement(
          placeLabels(labels, view, [], STYLE),
          labels.map((l) => l.marker),
          view,
        );
      },
    ),
    { numRuns: 200 },
  );
});

test('text widths: Helvetica Bold metrics, accents as their letters, ideographs a full em', () => {
  assert.equal(textWidth('Pico', 1000), 667 + 278 + 556 + 611);
  assert.equal(textWidth('Caldeirão', 15), textWidth('Caldeirao', 15));
  assert.equal(textWidth('富士山', 10), 30);
  assert.ok(textWidth('𝔘', 10) > 0, 'an unknown character still takes room');
  assert.deepEqual(twoLines('Levada do Caldeirão Verde'), ['Levada do', 'Caldeirão Verde'], 'the narrower block');
  assert.equal(twoLines('Funchal'), null);
});
