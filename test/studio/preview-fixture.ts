import assert from 'node:assert/strict';
import { areasExamples } from '../../src/resources/areas/examples.ts';
import { facilitiesExamples } from '../../src/resources/facilities/examples.ts';
import { routesExamples } from '../../src/resources/routes/examples.ts';
import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';
import type { Harness } from '../helpers/harness.ts';
import { photo, type SaleGuide, saleGuide } from '../helpers/sale-guide.ts';

export interface FullGuide extends SaleGuide {
  chapterId: string;
  hikeId: string;
  itineraryId: string;
  facilityId: string;
  areaName: string;
}

/** The sales-page guide and everything else buyers open: an area with rules and fees, a hut, a hike with its track, a trip and a chapter with a page. */
export async function fullGuide(h: Harness, api: Api, name = 'Lakes of Slovenia'): Promise<FullGuide> {
  const guide = await saleGuide(h, api, name);
  const { productId } = guide;
  const area = areasExamples.set_area?.input as Record<string, unknown>;
  const setArea = await api.call('set_area', { ...area, productId });
  assertOk(setArea);
  const place = facilitiesExamples.create_facility?.input as Record<string, unknown>;
  const { reviewNotes: _notes, ...buyerPlace } = place;
  const facility = await api.call('create_facility', { ...buyerPlace, productId, spotKeys: ['bohinj'] });
  assert.equal(facility.status, 201, JSON.stringify(facility.body));
  const hikeInput = routesExamples.create_hike?.input as Record<string, unknown>;
  const hike = await api.call('create_hike', { ...hikeInput, productId });
  assert.equal(hike.status, 201, JSON.stringify(hike.body));
  const trip = await api.call('create_itinerary', { productId, name: 'Two quiet days', travelMode: 'car' });
  assert.equal(trip.status, 201, JSON.stringify(trip.body));
  const itineraryId = trip.body.itineraryId as string;
  assertOk(
    await api.call('set_itinerary_days', {
      itineraryId,
      days: [
        {
          title: 'Bled at dawn',
          stops: [
            { kind: 'spot', spotKey: 'bled', when: 'morning', note: 'First boat at 8.' },
            { kind: 'spot', spotKey: 'vintgar', when: 'afternoon' },
          ],
          overnight: { facilityId: facility.body.facilityId },
        },
      ],
    }),
  );
  const chapter = await api.call('create_chapter', {
    productId,
    name: 'Lakes and gorges',
    kind: 'chapter',
    body: ['Two lakes an hour apart and the gorge between them.'],
  });
  assert.equal(chapter.status, 201, JSON.stringify(chapter.body));
  const chapterId = chapter.body.collectionId as string;
  assertOk(
    await api.call('set_chapter_members', {
      collectionId: chapterId,
      members: [{ spotKey: 'vintgar' }, { spotKey: 'bohinj' }],
    }),
  );
  const pagePhoto = await photo(h, productId, { credit: 'Tina Vrh', colour: '#4a6b8a', alt: 'Gorge boardwalk' });
  assertOk(
    await api.call('set_chapter_pages', {
      collectionId: chapterId,
      pages: [
        {
          title: 'A day from Bled',
          blocks: [
            { kind: 'heading', text: 'Morning: Vintgar Gorge', level: 2 },
            { kind: 'paragraph', text: 'Walk the boardwalk early.\n- bring cash\n- wear grippy shoes' },
            { kind: 'spot', spotKey: 'vintgar', note: 'Book the 8:00 slot in summer.' },
            { kind: 'photo', mediaId: pagePhoto, caption: 'The boardwalk at eight' },
            { kind: 'callout', tone: 'tip', text: 'Park at the upper lot and walk down.' },
            { kind: 'facts', title: 'At a glance', rows: [{ label: 'Walk', value: '1.6 km one way' }] },
            { kind: 'map', title: 'The day', spotKeys: ['vintgar', 'bohinj'] },
          ],
        },
      ],
    }),
  );
  return {
    ...guide,
    chapterId,
    hikeId: hike.body.hikeId as string,
    itineraryId,
    facilityId: facility.body.facilityId as string,
    areaName: area.name as string,
  };
}
