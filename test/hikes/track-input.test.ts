import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { parseInput } from '../../src/core/validation.ts';
import { hikeLineSchema, hikeTrackInputSchema, trackFiguresSchema } from '../../src/shared/tracks/track.schema.ts';
import { prepareTrack } from '../../src/shared/tracks/track.ts';
import { jsonSchemaOf } from '../../src/transports/tool-list.ts';
import { assertError } from '../helpers/answers.ts';
import { thrown } from '../helpers/refusals.ts';

/** The field as an operation will carry it: `track`, HikeTrack or null (null removes the line). */
const input = z.strictObject({ track: hikeTrackInputSchema.nullable().optional() });

/** What parseInput throws for the field. */
const refusal = (track: unknown) => thrown(() => parseInput(input, { track }));

const line = (n: number, ele = true) =>
  Array.from({ length: n }, (_, i) => (ele ? [11.8 + i / 1000, 46.5 + i / 2000, 1500 + i] : [11.8 + i / 1000, 46.5]));

describe('HikeTrack input', () => {
  it('takes points, a GeoJSON LineString or a GPX text, and null', () => {
    for (const track of [
      { points: line(2) },
      { points: line(5, false) },
      { type: 'LineString', coordinates: line(3) },
      { gpx: '<gpx/>' },
      null,
    ]) {
      assert.deepEqual(parseInput(input, { track }).track, track);
    }
  });

  it('refuses a point out of range with invalid_request naming its index', () => {
    const points = line(6);
    points[3] = [190, 46.5, 1500];
    assertError(refusal({ points }), 'invalid_request', 'track.points[3]', { hint: /longitude 190 .*-180 to 180/ });
    const coordinates = line(6);
    coordinates[4] = [11.8, -90.5];
    assertError(refusal({ type: 'LineString', coordinates }), 'invalid_request', 'track.coordinates[4]', {
      hint: /latitude -90.5/,
    });
    const high = line(6);
    high[5] = [11.8, 46.5, 9001];
    assertError(refusal({ points: high }), 'invalid_request', 'track.points[5]', {
      hint: /elevation 9001 m .*-500 to 9000/,
    });
    const deep = line(6);
    deep[0] = [11.8, 46.5, -501];
    assertError(refusal({ points: deep }), 'invalid_request', 'track.points[0]', { hint: /elevation -501/ });
  });

  it('hints at latitude-first points', () => {
    assertError(
      refusal({
        points: [
          [46.5, 11.8],
          [46.6, 191.0],
        ],
      }),
      'invalid_request',
      'track.points[1]',
      { hint: /longitude first/ },
    );
    assertError(
      refusal({
        points: [
          [11.8, 46.5],
          [46.6, 100],
        ],
      }),
      'invalid_request',
      'track.points[1]',
      { hint: /longitude first/ },
    );
  });

  it('lists at most 20 bad points', () => {
    const points = Array.from({ length: 500 }, () => [200, 46]);
    const err = refusal({ points });
    assert.equal(err.code, 'invalid_request');
    assert.equal((err.details?.issues as unknown[] | undefined)?.length, 20);
  });

  it('wants one arity for the whole line: every point with an elevation or none', () => {
    const points: number[][] = line(4);
    points[2] = [11.9, 46.6];
    assertError(refusal({ points }), 'invalid_request', 'track.points[2]', {
      hint: /has 2 numbers but the first point has 3/,
    });
    const flat: number[][] = line(4, false);
    flat[1] = [11.9, 46.6, 1200];
    assertError(refusal({ points: flat }), 'invalid_request', 'track.points[1]', { hint: /elevation or none/ });
  });

  it('answers invalid_argument for the wrong shape and invalid_request for sizes', () => {
    assertError(
      refusal({
        points: [
          [11, 'x'],
          [12, 46],
        ],
      }),
      'invalid_argument',
      'track',
    );
    assertError(refusal({ route: [] }), 'invalid_argument', 'track');
    assertError(refusal({ points: line(3), gpx: '<gpx/>' }), 'invalid_argument', 'track');
    assertError(refusal({ type: 'Point', coordinates: [11, 46] }), 'invalid_argument', 'track');
    assertError(refusal('<gpx/>'), 'invalid_argument', 'track');
    assertError(refusal({ points: line(1) }), 'invalid_request', 'track.points', { hint: /at least 2/ });
    assertError(
      refusal({
        points: [
          [11, 46, 1000, 5],
          [12, 46, 1000],
        ],
      }),
      'invalid_request',
      'track.points[0]',
      { hint: /at most 3/ },
    );
    assertError(refusal({ points: [[11], [12, 46]] }), 'invalid_request', 'track.points[0]', { hint: /at least 2/ });
    assertError(refusal({ gpx: '' }), 'invalid_request', 'track.gpx', { hint: /must not be empty/ });
  });
});

describe('HikeTrack JSON Schema', () => {
  const schema = jsonSchemaOf(input, 'input');
  const text = JSON.stringify(schema);

  it('is small and has no tuple forms that older validators misread', () => {
    assert.ok(text.length < 2500, `${text.length} characters`);
    assert.doesNotMatch(text, /prefixItems/);
    assert.doesNotMatch(text, /"items":false/);
    assert.doesNotMatch(text, /\$ref|\$defs|definitions/);
  });

  it('means the same under draft-07 and 2020-12', () => {
    const draft07 = new Ajv({ strict: true, allErrors: true }).compile(schema);
    const draft2020 = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const samples: Array<[unknown, boolean]> = [
      [{ track: { points: line(2) } }, true],
      [{ track: { points: line(3, false) } }, true],
      [{ track: { type: 'LineString', coordinates: line(3) } }, true],
      [{ track: { gpx: '<gpx/>' } }, true],
      [{ track: null }, true],
      [{}, true],
      [{ track: { points: line(1) } }, false],
      [
        {
          track: {
            points: [
              [11, 46, 1, 2],
              [12, 46],
            ],
          },
        },
        false,
      ],
      [{ track: { points: [[11], [12, 46]] } }, false],
      [
        {
          track: {
            points: [
              [11, '46'],
              [12, 46],
            ],
          },
        },
        false,
      ],
      [{ track: { type: 'Point', coordinates: line(2) } }, false],
      [{ track: { points: line(2), gpx: '<gpx/>' } }, false],
      [{ track: { gpx: '' } }, false],
      [{ track: { gpx: 5 } }, false],
      [{ track: 'points' }, false],
      [{ track: { points: line(2) }, other: 1 }, false],
    ];
    for (const [sample, valid] of samples) {
      assert.equal(draft07(sample), valid, `draft-07 on ${JSON.stringify(sample)}`);
      assert.equal(draft2020(sample), valid, `2020-12 on ${JSON.stringify(sample)}`);
      // zod agrees on the shape (ranges are the refinement's, and these samples are all in range).
      assert.equal(input.safeParse(sample).success, valid, `zod on ${JSON.stringify(sample)}`);
    }
  });

  it('reads back (line and figures) valid under draft-07 and 2020-12', async () => {
    const output = jsonSchemaOf(z.object({ track: hikeLineSchema, trackFigures: trackFiguresSchema }), 'output');
    assert.doesNotMatch(JSON.stringify(output), /prefixItems|"items":false/);
    const prepared = await prepareTrack({ points: line(5) }, 'track');
    const record = { track: prepared.line, trackFigures: prepared.figures };
    for (const validate of [new Ajv({ strict: true }).compile(output), new Ajv2020({ strict: true }).compile(output)]) {
      assert.equal(validate(record), true, JSON.stringify(validate.errors));
    }
  });

  it('describes every form for a model reading it', () => {
    for (const phrase of ['[lon, lat]', 'LineString', 'GPX', 'trk/trkseg/trkpt', '2,000']) {
      assert.ok(text.includes(phrase), `mentions ${phrase}`);
    }
  });
});
