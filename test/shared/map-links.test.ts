import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAllowlistedMapUrl, isGeoUri } from '../../src/shared/map-links.ts';

describe('map links', () => {
  it('a geo: URI within the globe, with optional altitude and parameters', () => {
    assert.equal(isGeoUri('geo:46.37,13.83'), true);
    assert.equal(isGeoUri('geo:-33.9,151.2,40;u=35?z=12'), true);
    assert.equal(isGeoUri('GEO:46,13'), true);
    assert.equal(isGeoUri('geo:91,13'), false);
    assert.equal(isGeoUri('geo:46,181'), false);
    assert.equal(isGeoUri('geo:Ljubljana'), false);
  });

  it('https on a map host or a subdomain of one, and only its map pages on general hosts', () => {
    assert.equal(isAllowlistedMapUrl('https://www.openstreetmap.org/#map=12/46.3/13.8'), true);
    assert.equal(isAllowlistedMapUrl('https://maps.apple.com/?ll=46.3,13.8'), true);
    assert.equal(isAllowlistedMapUrl('https://www.google.com/maps/place/Bled'), true);
    assert.equal(isAllowlistedMapUrl('https://www.google.com/search?q=bled'), false);
    assert.equal(isAllowlistedMapUrl('http://maps.apple.com/?ll=46.3,13.8'), false);
    assert.equal(isAllowlistedMapUrl('https://notopenstreetmap.org/'), false);
    assert.equal(isAllowlistedMapUrl('https://maps.apple.com.evil.example/'), false);
    assert.equal(isAllowlistedMapUrl('https://'), false);
  });
});
