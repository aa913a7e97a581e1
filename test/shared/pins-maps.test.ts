import assert from 'node:assert/strict';
import { it } from 'node:test';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal, refused, refusedArgument } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const pin = (i: number) => ({ kind: 'viewpoint', label: `Pin ${i}`, lat: 46 + i / 100, lon: 11 + i / 100 });
const mapLink = (i: number) => ({ label: `Map ${i}`, url: `https://www.openstreetmap.org/#map=15/46.6/12.${i}` });
const mapUrl = (url: unknown) => ({ mapLinks: [mapLink(0), { label: 'Under test', url }] });
const URL_HINT = /https.*geo:/;

const pinRefusals: Refusal[] = [
  refused('13 pins (max 12)', { pins: times(13, pin) }, 'pins', /at most 12/),
  refused('label of 81 (max 80)', { pins: [pin(0), { ...pin(1), label: chars(81) }] }, 'pins[1].label', /at most 80/),
  refused(
    'label of 81 emoji (max 80 characters, counted as people count them)',
    { pins: [{ ...pin(0), label: '🏔'.repeat(81) }] },
    'pins[0].label',
    /at most 80 characters \(got 81\)/,
  ),
  refused('note of 301 (max 300)', { pins: [{ ...pin(0), note: chars(301) }] }, 'pins[0].note', /at most 300/),
  refused('lat 90.0001', { pins: [{ ...pin(0), lat: 90.0001 }] }, 'pins[0].lat', /90/),
  refused('lat -91', { pins: [{ ...pin(0), lat: -91 }] }, 'pins[0].lat'),
  refused('lon 180.5', { pins: [{ ...pin(0), lon: 180.5 }] }, 'pins[0].lon', /180/),
  refused('lon -181', { pins: [{ ...pin(0), lon: -181 }] }, 'pins[0].lon'),
  refused('month 0', { pins: [{ ...pin(0), months: [0, 1] }] }, 'pins[0].months[0]'),
  refused('month 13', { pins: [{ ...pin(0), months: [12, 13] }] }, 'pins[0].months[1]'),
  refusedArgument('a kind outside the list', { pins: [{ ...pin(0), kind: 'toilet' }] }, 'pins[0].kind', /"viewpoint"/),
  refusedArgument('a missing label', { pins: [{ kind: 'gate', lat: 1, lon: 2 }] }, 'pins[0].label'),
  refusedArgument('a missing lon', { pins: [{ kind: 'gate', label: 'Gate', lat: 1 }] }, 'pins[0].lon'),
  refusedArgument('lat sent as a string', { pins: [{ ...pin(0), lat: '46.5' }] }, 'pins[0].lat'),
  refusedArgument(
    'an unknown field inside a pin',
    { pins: [{ ...pin(0), elevation: 2000 }] },
    'pins[0].elevation',
    /unknown field/,
  ),
];

const mapLinkRefusals: Refusal[] = [
  refused('9 map links (max 8)', { mapLinks: times(9, mapLink) }, 'mapLinks', /at most 8/),
  refused(
    'label of 41 (max 40)',
    { mapLinks: [{ ...mapLink(0), label: chars(41) }] },
    'mapLinks[0].label',
    /at most 40/,
  ),
  refused('http://maps.google.com', mapUrl('http://maps.google.com'), 'mapLinks[1].url', URL_HINT),
  refused('geo:91,0', mapUrl('geo:91,0'), 'mapLinks[1].url', URL_HINT),
  refused('geo:0,181', mapUrl('geo:0,181'), 'mapLinks[1].url'),
  refused('geo: without lon', mapUrl('geo:46.6'), 'mapLinks[1].url'),
  refused('ftp://', mapUrl('ftp://maps.example.com'), 'mapLinks[1].url'),
  refused('not a url', mapUrl('not a url'), 'mapLinks[1].url'),
  refused('https: without // (apps would not open it)', mapUrl('https:maps.example.com'), 'mapLinks[1].url'),
  refusedArgument('a url that is a number', mapUrl(46), 'mapLinks[1].url'),
  refusedArgument('a missing url', { mapLinks: [{ label: 'Map' }] }, 'mapLinks[0].url'),
  refusedArgument('a missing label', { mapLinks: [{ url: 'https://maps.apple.com/?q=x' }] }, 'mapLinks[0].label'),
  refusedArgument(
    'an unknown field inside a map link',
    { mapLinks: [{ ...mapLink(0), provider: 'osm' }] },
    'mapLinks[0].provider',
    /unknown field/,
  ),
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
