import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bboxContains, unpairedCoordinate } from '../../src/shared/geo.ts';

describe('coordinate pairs', () => {
  it('both halves or neither; one alone names the missing half', () => {
    assert.equal(unpairedCoordinate({ lat: 1, lon: 2 }, 'lat', 'lon'), undefined);
    assert.equal(unpairedCoordinate({}, 'lat', 'lon'), undefined);
    assert.deepEqual(unpairedCoordinate({ centerLat: 1 }, 'centerLat', 'centerLon'), {
      missing: 'centerLon',
      message: 'give centerLat and centerLon together',
    });
    assert.equal(unpairedCoordinate({ meetingLon: 0 }, 'meetingLat', 'meetingLon')?.missing, 'meetingLat');
  });
});

describe('bboxContains', () => {
  it('a box, edges included', () => {
    assert.equal(bboxContains([13, 46, 14, 47], 46.5, 13.5), true);
    assert.equal(bboxContains([13, 46, 14, 47], 46, 14), true);
    assert.equal(bboxContains([13, 46, 14, 47], 45.9, 13.5), false);
    assert.equal(bboxContains([13, 46, 14, 47], 46.5, 14.1), false);
  });

  it('a box across the antimeridian (west above east)', () => {
    assert.equal(bboxContains([170, -20, -170, -10], -15, 179), true);
    assert.equal(bboxContains([170, -20, -170, -10], -15, -175), true);
    assert.equal(bboxContains([170, -20, -170, -10], -15, 0), false);
  });
});
