import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Snapshot } from '../../src/resources/publishing/index.ts';
import { buyersPageModel } from '../../src/resources/sales-page/page-model.ts';
import { renderBuyersPage } from '../../src/resources/sales-page/page-render.ts';

/** A release as the store keeps it: the guide's fields, no sales page, one spot. */
function release(guide: Record<string, unknown>): Snapshot {
  const spot = { spotId: 's1', spotKey: 'k1', name: 'Pico Ruivo', description: null, lat: 32.7589, lon: -16.9431 };
  return {
    guide: { name: 'Madeira walks', headline: null, purchaseButtonText: null, price: null, region: null, ...guide },
    salesPage: null,
    items: { area: {}, spot: { s1: spot }, place: {}, route: {}, chapter: {}, photo: {}, itinerary: {} },
  };
}

const render = (snapshot: Snapshot) => renderBuyersPage(buyersPageModel(snapshot), 'http://127.0.0.1/g/a/b', '');

test('a release names its creator as it was kept; one made before names were kept shows no byline', () => {
  const named = render(release({ creatorName: 'Ana Trails' }));
  assert.match(named, /<p class="byline">A guide by <span class="creator">Ana Trails<\/span><\/p>/);
  assert.match(named, /<footer><p>Madeira walks · by Ana Trails<\/p><\/footer>/);
  for (const older of [release({}), release({ creatorName: '  ' })]) {
    const page = render(older);
    assert.doesNotMatch(
      page,
      /class="byline"|name="author"|· by/,
      'nothing invented, nothing read from the live profile',
    );
    assert.match(page, /<footer><p>Madeira walks<\/p><\/footer>/);
  }
});
