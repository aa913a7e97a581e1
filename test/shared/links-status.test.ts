import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal, refused, refusedArgument } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const link = (i: number) => ({ kind: 'website', url: `https://example.com/${i}` });

/** GuideLink refusals: bounds, the url-or-value rule, the kind list, unknown fields, URL forms. */
const linkRefusals: Refusal[] = [
  refused('13 links (max 12)', { links: times(13, link) }, 'links', /at most 12/),
  refused(
    'label of 61 (max 60)',
    { links: [link(0), { ...link(1), label: chars(61) }] },
    'links[1].label',
    /at most 60/,
  ),
  refused(
    'value of 201 (max 200)',
    { links: [{ kind: 'social', value: chars(201) }] },
    'links[0].value',
    /at most 200/,
  ),
  refused('note of 301 (max 300)', { links: [{ ...link(0), note: chars(301) }] }, 'links[0].note', /at most 300/),
  refused(
    'a link with neither url nor value',
    { links: [link(0), link(1), { kind: 'tickets', label: 'Tickets' }] },
    'links[2]',
    /url or a value/,
  ),
  refusedArgument(
    'a kind outside the list',
    { links: [{ kind: 'homepage', url: 'https://example.com' }] },
    'links[0].kind',
    /"official".*"other"/,
  ),
  refusedArgument('a missing kind', { links: [{ url: 'https://example.com' }] }, 'links[0].kind'),
  refusedArgument(
    'an unknown field inside a link',
    { links: [{ ...link(0), href: 'https://example.com' }] },
    'links[0].href',
    /unknown field/,
  ),
  refusedArgument('a url that is a number', { links: [{ kind: 'website', url: 42 }] }, 'links[0].url'),
  refused(
    'an ftp:// url',
    { links: [{ kind: 'website', url: 'ftp://example.com/file' }] },
    'links[0].url',
    /https:\/\//,
  ),
  refused('a url that is not a url', { links: [{ kind: 'website', url: 'not a url' }] }, 'links[0].url', /https:\/\//),
  refused('a javascript: url', { links: [{ kind: 'website', url: 'javascript:alert(1)' }] }, 'links[0].url'),
];

/** StatusNotice refusals. */
const statusRefusals: Refusal[] = [
  refused(
    'until before since',
    { status: { state: 'closed', since: '2026-05-02', until: '2026-05-01' } },
    'status.until',
    /not be before since/,
  ),
  refused('note of 501 (max 500)', { status: { state: 'closed', note: chars(501) } }, 'status.note', /at most 500/),
  refusedArgument(
    'a state outside the list',
    { status: { state: 'shut' } },
    'status.state',
    /"open".*"partly_closed".*"closed".*"reopening"/,
  ),
  refusedArgument('a missing state', { status: { note: 'Works' } }, 'status.state'),
  refusedArgument(
    'an unknown field inside the notice',
    { status: { state: 'closed', reason: 'works' } },
    'status.reason',
    /unknown field/,
  ),
  refused('since that is not a day (2026-02-30)', { status: { state: 'closed', since: '2026-02-30' } }, 'status.since'),
  refused(
    'a sourceUrl on ftp',
    { status: { state: 'closed', sourceUrl: 'ftp://example.com' } },
    'status.sourceUrl',
    /https:\/\//,
  ),
  refusedArgument('a status that is a string', { status: 'closed' }, 'status'),
];

await describeOnSpots('GuideLink and StatusNotice', 'Links and status', ({ apis, ids }, t) => {
  it('GuideLink: a full example at every bound reads back identical, without warnings', async () => {
    const links = [
      { kind: 'official', label: chars(60, 'L'), url: 'https://example.com/park', note: chars(300, 'n') },
      { kind: 'social', label: 'WhatsApp', value: chars(200, '4') },
      { kind: 'tickets', url: 'https://tickets.example.com/', value: '+41 00 000 00 00' },
      ...times(9, link),
    ];
    assert.equal(links.length, 12);
    const spot = await createAndRead(apis[t], ids[t].productId, { links });
    assert.deepEqual(spot.links, links);
  });

  it('GuideLink: every kind of the list is accepted', async () => {
    const kinds = [
      'official',
      'website',
      'tickets',
      'booking',
      'status',
      'timetable',
      'tide',
      'listing',
      'social',
      'authority',
      'app',
      'other',
    ];
    const links = kinds.map((kind) => ({ kind, value: kind }));
    const spot = await createAndRead(apis[t], ids[t].productId, { links });
    assert.deepEqual(spot.links, links);
  });

  it('GuideLink: plain http is accepted with a warning naming the path; https has no warnings key', async () => {
    const created = await apis[t].call('update_spot', {
      spotId: ids[t].spotId,
      links: [link(0), { kind: 'booking', url: 'http://booking.example.com/x' }],
    });
    assertOk(created);
    assert.deepEqual(created.body.warnings, ['links[1].url: plain http link; prefer https if the site offers it.']);
    assert.equal(created.body.links[1].url, 'http://booking.example.com/x');
    const read = await apis[t].call('get_spot', { spotId: ids[t].spotId });
    assert.equal(read.body.links[1].url, 'http://booking.example.com/x');
    assert.equal('warnings' in read.body, false);
    const secure = await apis[t].call('update_spot', { spotId: ids[t].spotId, links: [link(0)] });
    assertOk(secure);
    assert.equal('warnings' in secure.body, false, JSON.stringify(secure.body.warnings));
  });

  it('GuideLink: an empty list clears the links', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, { links: [link(0)] });
    const cleared = await apis[t].call('update_spot', { spotId: spot.spotId, links: [] });
    assertOk(cleared);
    assert.deepEqual((await apis[t].call('get_spot', { spotId: spot.spotId })).body.links, []);
  });

  itRefusesEach('GuideLink refused', linkRefusals, (c) => assertWriteRefused(apis[t], ids[t], c));

  it('StatusNotice: a full example at every bound reads back identical', async () => {
    const status = {
      state: 'reopening',
      note: chars(500, 'w'),
      since: '2026-03-01',
      until: '2026-03-01',
      sourceUrl: 'https://example.com/status',
      checkedOn: '2026-02-28',
    };
    const spot = await createAndRead(apis[t], ids[t].productId, { status });
    assert.deepEqual(spot.status, status);
  });

  it('StatusNotice: every state is accepted; update replaces it, null clears it', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, { status: { state: 'open' } });
    for (const state of ['partly_closed', 'closed', 'reopening', 'open']) {
      const a = await apis[t].call('update_spot', {
        spotId: spot.spotId,
        status: { state, since: '2026-01-01' },
      });
      assertOk(a);
      assert.deepEqual(a.body.status, { state, since: '2026-01-01' });
    }
    assertOk(await apis[t].call('update_spot', { spotId: spot.spotId, status: null }));
    assert.equal((await apis[t].call('get_spot', { spotId: spot.spotId })).body.status, null);
  });

  it('StatusNotice: an http sourceUrl is accepted with a warning at status.sourceUrl', async () => {
    const a = await apis[t].call('create_spot', {
      productId: ids[t].productId,
      name: 'Http status',
      status: { state: 'closed', sourceUrl: 'http://example.com/news' },
    });
    assertOk(a, 201);
    assert.deepEqual(a.body.warnings, ['status.sourceUrl: plain http link; prefer https if the site offers it.']);
  });

  itRefusesEach('StatusNotice refused', statusRefusals, (c) => assertWriteRefused(apis[t], ids[t], c));
});
