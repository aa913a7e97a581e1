import type { OperationExample } from '../../core/operation.ts';

const bikeRoute = {
  routeId: 'rt_61h92LFhw1QeOEJ1',
  productId: 'gd_kKif6mbydYyv_ZEZ',
  name: 'Bled to Bohinj by bike',
  mode: 'bike',
  description: null,
  distanceKm: 27,
  durationMin: 120,
  links: [{ kind: 'official', label: 'Cycling in Bohinj', url: 'https://www.bohinj.si/en/cycling' }],
  status: { state: 'open', checkedOn: '2026-11-02' },
  fees: [],
  sources: [],
  factsCheckedOn: '2026-11-02',
  reviewBy: null,
  trackFigures: {
    distanceKm: 27.27,
    gainM: null,
    descentM: null,
    pointCount: 3,
    bbox: [46.2833, 13.8856, 46.3683, 14.1146],
  },
  spotKeys: [],
  facilities: [],
  createdAt: 1795428000000,
  updatedAt: 1795428000000,
};
const updatedRoute = {
  ...bikeRoute,
  durationMin: 135,
  status: { state: 'partly_closed', note: 'Detour at Soteska until March', checkedOn: '2026-11-20' },
  updatedAt: 1795428000001,
};
const listedRoute = {
  ...updatedRoute,
  spotKeys: ['vintgar-gorge', 'lake-bohinj'],
  facilities: [{ facilityId: 'fac_0MknvfVxVCxRUasv', order: 1 }],
  updatedAt: 1795428000003,
};
const sevenLakes = {
  hikeId: 'hk_RKTSJtbL8E6rHyG0',
  productId: 'gd_kKif6mbydYyv_ZEZ',
  name: 'Seven Lakes Valley from Planina Blato',
  description: null,
  difficulty: 'moderate',
  distanceKm: 14.5,
  durationMin: 330,
  gainM: 1050,
  descentM: 1050,
  grade: 'T2',
  start: 'Planina Blato car park (toll road)',
  startMapsUrl: 'https://www.openstreetmap.org/node/2398765432',
  equipment: ['Hiking boots', 'Cash for the hut'],
  transit: [{ mode: 'bus', note: 'Hiker bus from Bohinj in July and August' }],
  sources: ['https://www.tnp.si/en/visit/seven-lakes-valley'],
  trackFigures: {
    distanceKm: 6.72,
    gainM: 538,
    descentM: 0,
    pointCount: 3,
    bbox: [13.7769, 46.2989, 13.8431, 46.3342],
  },
  spotKeys: [],
  facilities: [],
  createdAt: 1795428000000,
  updatedAt: 1795428000000,
  warnings: [
    "distanceKm 14.5 km differs from the track's distance of 6.72 km by more than a fifth. The value given is kept: check it with the creator, and send distanceKm 6.72 if the track is right.",
    "gainM 1050 m differs from the track's climb of 538 m by more than a fifth. The value given is kept: check it with the creator, and send gainM 538 if the track is right.",
    "descentM 1050 m differs from the track's descent of 0 m by more than a fifth. The value given is kept: check it with the creator, and send descentM 0 if the track is right.",
  ],
};
const { warnings: _checkedOnCreate, ...storedHike } = sevenLakes;
const listedHike = { ...storedHike, difficulty: 'hard', durationMin: 360, updatedAt: 1795428000001 };

/**
 * The route and hike of the Slovenia story (recorded from a real run): a bike route from Bled to Bohinj through
 * the gorge, and the Seven Lakes hike past the hut of the places examples.
 */
export const routesExamples = {
  list_routes: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', count: 1, routes: [listedRoute], total: 1 },
  },
  create_route: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      name: 'Bled to Bohinj by bike',
      mode: 'bike',
      distanceKm: 27,
      durationMin: 120,
      track: {
        points: [
          [46.3683, 14.1146],
          [46.3125, 14.0089],
          [46.2833, 13.8856],
        ],
      },
      links: [{ kind: 'official', label: 'Cycling in Bohinj', url: 'https://www.bohinj.si/en/cycling' }],
      status: { state: 'open', checkedOn: '2026-11-02' },
      factsCheckedOn: '2026-11-02',
    },
    output: bikeRoute,
  },
  update_route: {
    input: {
      routeId: 'rt_61h92LFhw1QeOEJ1',
      durationMin: 135,
      status: { state: 'partly_closed', note: 'Detour at Soteska until March', checkedOn: '2026-11-20' },
    },
    output: updatedRoute,
  },
  delete_route: {
    input: { routeId: 'rt_61h92LFhw1QeOEJ1' },
    output: { ok: true, routeId: 'rt_61h92LFhw1QeOEJ1', deleted: true },
  },
  set_route_spots: {
    input: { routeId: 'rt_61h92LFhw1QeOEJ1', spotKeys: ['vintgar-gorge', 'lake-bohinj'] },
    output: { ok: true, routeId: 'rt_61h92LFhw1QeOEJ1', spotCount: 2 },
  },
  set_spot_routes: {
    input: { spotId: 'sp_T5j-x6AA2bbpCfKB', routeIds: ['rt_61h92LFhw1QeOEJ1'] },
    output: { ok: true, spotId: 'sp_T5j-x6AA2bbpCfKB', routeCount: 1 },
  },
  set_route_facilities: {
    input: { routeId: 'rt_61h92LFhw1QeOEJ1', facilities: [{ facilityId: 'fac_0MknvfVxVCxRUasv', order: 1 }] },
    output: { ok: true, routeId: 'rt_61h92LFhw1QeOEJ1', edges: 1 },
  },
  list_hikes: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', count: 1, hikes: [listedHike], total: 1 },
  },
  create_hike: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      name: 'Seven Lakes Valley from Planina Blato',
      difficulty: 'moderate',
      distanceKm: 14.5,
      durationMin: 330,
      gainM: 1050,
      descentM: 1050,
      grade: 'T2',
      start: 'Planina Blato car park (toll road)',
      startMapsUrl: 'https://www.openstreetmap.org/node/2398765432',
      equipment: ['Hiking boots', 'Cash for the hut'],
      sources: ['https://www.tnp.si/en/visit/seven-lakes-valley'],
      transit: [{ mode: 'bus', note: 'Hiker bus from Bohinj in July and August' }],
      track: {
        type: 'LineString',
        coordinates: [
          [13.8431, 46.2994, 1147],
          [13.8275, 46.2989, 1453],
          [13.7769, 46.3342, 1685],
        ],
      },
    },
    output: sevenLakes,
  },
  update_hike: {
    input: { hikeId: 'hk_RKTSJtbL8E6rHyG0', difficulty: 'hard', durationMin: 360 },
    output: { ok: true, hikeId: 'hk_RKTSJtbL8E6rHyG0' },
  },
  delete_hike: {
    input: { hikeId: 'hk_RKTSJtbL8E6rHyG0' },
    output: { ok: true, hikeId: 'hk_RKTSJtbL8E6rHyG0', deleted: true },
  },
} satisfies Record<string, OperationExample>;
