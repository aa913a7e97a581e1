import assert from 'node:assert/strict';
import { it } from 'node:test';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const pin = (i: number) => ({ kind: 'viewpoint', label: `Pin ${i}`, lat: 46 + i / 100, lon: 11 + i / 100 });
const mapLink = (i: number) => ({ label: `Map ${i}`, url: `https://www.openstreetmap.org/#map=15/46.6/12.${i}` });
const mapUrl = (url: unknown) => ({ mapLinks: [mapLink(0), { label: 'Under test', url }] });
const URL_HINT = /https.*geo:/;

const pinRefusals: Refusal[] = [
  {
    title: '13 pins (max 12)',
    fields: { pins: times(13, pin) },
    code: 'invalid_request',
    path: 'pins',
    hint: /at most 12/,
  },
  {
    title: 'label of 81 (max 80)',
    fields: { pins: [pin(0), { ...pin(1), label: chars(81) }] },
    code: 'invalid_request',
    path: 'pins[1].label',
    hint: /at most 80/,
  },
  {
    title: 'label of 81 emoji (max 80 characters, counted as people count them)',
    fields: { pins: [{ ...pin(0), label: '🏔'.repeat(81) }] },
    code: 'invalid_request',
    path: 'pins[0].label',
    hint: /at most 80 characters \(got 81\)/,
  },
  {
    title: 'note of 301 (max 300)',
    fields: { pins: [{ ...pin(0), note: chars(301) }] },
    code: 'invalid_request',
    path: 'pins[0].note',
    hint: /at most 300/,
  },
  {
    title: 'lat 90.0001',
    fields: { pins: [{ ...pin(0), lat: 90.0001 }] },
    code: 'invalid_request',
    path: 'pins[0].lat',
    hint: /90/,
  },
  { title: 'lat -91', fields: { pins: [{ ...pin(0), lat: -91 }] }, code: 'invalid_request', path: 'pins[0].lat' },
  {
    title: 'lon 180.5',
    fields: { pins: [{ ...pin(0), lon: 180.5 }] },
    code: 'invalid_request',
    path: 'pins[0].lon',
    hint: /180/,
  },
  { title: 'lon -181', fields: { pins: [{ ...pin(0), lon: -181 }] }, code: 'invalid_request', path: 'pins[0].lon' },
  {
    title: 'month 0',
    fields: { pins: [{ ...pin(0), months: [0, 1] }] },
    code: 'invalid_request',
    path: 'pins[0].months[0]',
  },
  {
    title: 'month 13',
    fields: { pins: [{ ...pin(0), months: [12, 13] }] },
    code: 'invalid_request',
    path: 'pins[0].months[1]',
  },
  {
    title: 'a kind outside the list',
    fields: { pins: [{ ...pin(0), kind: 'toilet' }] },
    code: 'invalid_argument',
    path: 'pins[0].kind',
    hint: /"viewpoint"/,
  },
  {
    title: 'a missing label',
    fields: { pins: [{ kind: 'gate', lat: 1, lon: 2 }] },
    code: 'invalid_argument',
    path: 'pins[0].label',
  },
  {
    title: 'a missing lon',
    fields: { pins: [{ kind: 'gate', label: 'Gate', lat: 1 }] },
    code: 'invalid_argument',
    path: 'pins[0].lon',
  },
  {
    title: 'lat sent as a string',
    fields: { pins: [{ ...pin(0), lat: '46.5' }] },
    code: 'invalid_argument',
    path: 'pins[0].lat',
  },
  {
    title: 'an unknown field inside a pin',
    fields: { pins: [{ ...pin(0), elevation: 2000 }] },
    code: 'invalid_argument',
    path: 'pins[0].elevation',
    hint: /unknown field/,
  },
];

const mapLinkRefusals: Refusal[] = [
  {
    title: '9 map links (max 8)',
    fields: { mapLinks: times(9, mapLink) },
    code: 'invalid_request',
    path: 'mapLinks',
    hint: /at most 8/,
  },
  {
    title: 'label of 41 (max 40)',
    fields: { mapLinks: [{ ...mapLink(0), label: chars(41) }] },
    code: 'invalid_request',
    path: 'mapLinks[0].label',
    hint: /at most 40/,
  },
  {
    title: 'http://maps.google.com',
    fields: mapUrl('http://maps.google.com'),
    code: 'invalid_request',
    path: 'mapLinks[1].url',
    hint: URL_HINT,
  },
  { title: 'geo:91,0', fields: mapUrl('geo:91,0'), code: 'invalid_request', path: 'mapLinks[1].url', hint: URL_HINT },
  { title: 'geo:0,181', fields: mapUrl('geo:0,181'), code: 'invalid_request', path: 'mapLinks[1].url' },
  { title: 'geo: without lon', fields: mapUrl('geo:46.6'), code: 'invalid_request', path: 'mapLinks[1].url' },
  { title: 'ftp://', fields: mapUrl('ftp://maps.example.com'), code: 'invalid_request', path: 'mapLinks[1].url' },
  { title: 'not a url', fields: mapUrl('not a url'), code: 'invalid_request', path: 'mapLinks[1].url' },
  {
    title: 'https: without // (apps would not open it)',
    fields: mapUrl('https:maps.example.com'),
    code: 'invalid_request',
    path: 'mapLinks[1].url',
  },
  { title: 'a url that is a number', fields: mapUrl(46), code: 'invalid_argument', path: 'mapLinks[1].url' },
  {
    title: 'a missing url',
    fields: { mapLinks: [{ label: 'Map' }] },
    code: 'invalid_argument',
    path: 'mapLinks[0].url',
  },
  {
    title: 'a missing label',
    fields: { mapLinks: [{ url: 'https://maps.apple.com/?q=x' }] },
    code: 'invalid_argument',
    path: 'mapLinks[0].label',
  },
  {
    title: 'an unknown field inside a map link',
    fields: { mapLinks: [{ ...mapLink(0), provider: 'osm' }] },
    code: 'invalid_argument',
    path: 'mapLinks[0].provider',
    hint: /unknown field/,
  },
];

await describeOnSpots('SpotPin and MapLink', 'Pins and maps', ({ apis, ids }, t) => {
  it('SpotPin: 12 pins at the coordinate, label and note bounds read back identical', async () => {
    const pins = [
      {
        kind: 'summit',
        label: chars(80, 'S'),
        lat: 90,
        lon: 180,
        months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        note: chars(300, 'n'),
      },
      { kind: 'pier', label: 'South pole pier', lat: -90, lon: -180, months: [6] },
      { kind: 'entrance', label: 'Precise', lat: 46.123456789, lon: 12.987654321 },
      ...['entrance', 'gate', 'trailhead', 'parking', 'stop', 'other'].map((kind, i) => ({ ...pin(i), kind })),
      ...times(3, pin),
    ];
    assert.equal(pins.length, 12);
    const spot = await createAndRead(apis[t], ids[t].productId, { pins });
    assert.deepEqual(spot.pins, pins);
  });

  it('SpotPin: 80 emoji make a label of 80 characters, as the tool schema counts them', async () => {
    const label = '🏔'.repeat(80);
    assert.equal(label.length, 160, 'UTF-16 units: twice the characters');
    const spot = await createAndRead(apis[t], ids[t].productId, { pins: [{ ...pin(0), label }] });
    assert.equal(spot.pins[0].label, label);
  });

  it('SpotPin: a month listed twice is kept once, in first-seen order', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, {
      pins: [{ ...pin(0), months: [7, 6, 7, 6, 8] }],
    });
    assert.deepEqual(spot.pins[0].months, [7, 6, 8]);
  });

  it('MapLink: 8 links, https on any host and geo: URIs read back identical, without warnings', async () => {
    const mapLinks = [
      { label: chars(40, 'M'), url: 'https://maps.google.com/?q=46.6,12.3' },
      { label: 'Any https host', url: 'https://trails.example.org/map/7' },
      { label: 'Geo', url: 'geo:46.6,12.3' },
      { label: 'Geo with altitude', url: 'geo:-33.8688,151.2093,58;u=35' },
      { label: 'Geo at the bounds', url: 'geo:90,-180' },
      { label: 'Apple', url: 'https://maps.apple.com/?ll=46.6,12.3' },
      ...times(2, mapLink),
    ];
    assert.equal(mapLinks.length, 8);
    const spot = await createAndRead(apis[t], ids[t].productId, { mapLinks });
    assert.deepEqual(spot.mapLinks, mapLinks);
  });

  it('pins and map links are full replacements on update_spot; [] clears', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, {
      pins: [pin(0), pin(1)],
      mapLinks: [mapLink(0)],
    });
    const a = await apis[t].call('update_spot', { spotId: spot.spotId, pins: [pin(5)], mapLinks: [] });
    assert.equal(a.ok, true, JSON.stringify(a.body));
    const read = await apis[t].call('get_spot', { spotId: spot.spotId });
    assert.deepEqual(read.body.pins, [pin(5)]);
    assert.deepEqual(read.body.mapLinks, []);
  });

  itRefusesEach('SpotPin refused', pinRefusals, (c) => assertWriteRefused(apis[t], ids[t], c));

  itRefusesEach('MapLink refused', mapLinkRefusals, (c) => assertWriteRefused(apis[t], ids[t], c));
});
