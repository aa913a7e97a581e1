import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPinPosition, type PinPosition, timeZoneAt } from '../../src/shared/pin-position.ts';
import { thrown } from '../helpers/refusals.ts';

const ljubljana: PinPosition = { lat: 46.05, lon: 14.51, timeZone: 'Europe/Ljubljana' };
const after = (input: Parameters<typeof applyPinPosition>[1], from: PinPosition = ljubljana) => {
  const next = { ...from };
  applyPinPosition(next, input);
  return next;
};

describe('pin position rules', () => {
  it('lat and lon together move the pin, and the time zone follows', () => {
    assert.deepEqual(after({ lat: 40.71, lon: -74 }), { lat: 40.71, lon: -74, timeZone: 'America/New_York' });
  });

  it('one of them alone is refused, naming the missing one with the caller prefix', () => {
    const error = thrown(() => applyPinPosition({ ...ljubljana }, { lat: 40 }, (f) => `spots[2].${f}`));
    assert.equal(error.code, 'invalid_request');
    assert.equal(error.message, 'spots[2].lon: give lat and lon together (null clears the pin).');
    assert.equal(thrown(() => applyPinPosition({ ...ljubljana }, { lon: 12 })).details?.path, 'lat');
  });

  it('null in either clears the pin and its zone', () => {
    const cleared = { lat: null, lon: null, timeZone: null };
    assert.deepEqual(after({ lat: null, lon: null }), cleared);
    assert.deepEqual(after({ lat: null }), cleared);
    assert.deepEqual(after({ lon: null, lat: 3 }), cleared);
  });

  it('neither leaves the pin where it is', () => {
    assert.deepEqual(after({}), ljubljana);
  });

  it('no pin, no zone', () => {
    assert.equal(timeZoneAt(null, 14), null);
    assert.equal(timeZoneAt(-33.86, 151.21), 'Australia/Sydney');
  });
});
