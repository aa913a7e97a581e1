import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { addressesOf } from '../../src/core/addresses.ts';
import { API_VERSION, AUTHORING_GUIDE_VERSION } from '../../src/core/versions.ts';
import {
  parsePlaybook,
  playbookAnswers,
  playbookMarkdown,
  playbookTopics,
  sectionsOf,
} from '../../src/resources/authoring/playbook.ts';
import { placeKinds, placeTypes } from '../../src/resources/facilities/facility.schema.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports } from '../helpers/api.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { phoneJpeg } from '../helpers/images.ts';

const file = readFileSync(new URL('../../docs/authoring-playbook.md', import.meta.url), 'utf8');
const playbook = parsePlaybook(file);
const here = addressesOf('http://127.0.0.1:8080');

describe('the playbook in topics', () => {
  it('every section of the file is in the overview or in exactly one topic', () => {
    const owners = new Map<string, string[]>();
    for (const answer of playbookAnswers) {
      if (answer === 'all') continue;
      const sections = sectionsOf(playbook, answer);
      assert.ok(sections.length > 0, `${answer} finds its sections`);
      for (const s of sections) owners.set(s.heading, [...(owners.get(s.heading) ?? []), answer]);
    }
    for (const s of playbook.sections) {
      assert.deepEqual(owners.get(s.heading)?.length, 1, `"${s.heading}" is in ${owners.get(s.heading) ?? 'no topic'}`);
    }
  });

  it('the overview is short and names every topic; all is the whole file', () => {
    const overview = playbookMarkdown(playbook, 'overview', here);
    assert.ok(Buffer.byteLength(overview) < 8000, `overview ${Buffer.byteLength(overview)} bytes`);
    for (const { topic } of playbookTopics) assert.ok(overview.includes(`- \`${topic}\`: `), topic);
    assert.match(overview, /## Rules you must keep/);
    assert.match(overview, /### Paging, compact views and filters/);
    const all = playbookMarkdown(playbook, 'all', here);
    for (const s of playbook.sections) assert.ok(all.includes(`${s.heading}`), s.heading);
    assert.ok(Buffer.byteLength(all) > 5 * Buffer.byteLength(overview));
  });

  it('the file states the versions the service answers', () => {
    assert.ok(
      playbook.preamble.includes(`Authoring playbook · version ${AUTHORING_GUIDE_VERSION} · API ${API_VERSION}`),
    );
  });

  it('a topic answer states the versions and its topic, and holds only its sections', () => {
    const places = playbookMarkdown(playbook, 'places', here);
    assert.match(
      places,
      /^# Authoring playbook for travel guides: places\n\nAuthoring playbook · version \S+ · API \S+ · topic `places`/,
    );
    assert.doesNotMatch(places, /## Rules you must keep|### 5\. Spots/);
  });

  it('the places topic names every sub-type of every kind', () => {
    const places = playbookMarkdown(playbook, 'places', here);
    for (const kind of placeKinds) {
      const line = places.split('\n').find((l) => l.trimStart().startsWith(`- \`${kind}\`: `));
      assert.ok(line, kind);
      for (const type of placeTypes[kind]) assert.ok(line.includes(`\`${type}\``), `${kind}: ${type}`);
    }
  });

  it('paging is taught with the shared conventions', () => {
    const overview = playbookMarkdown(playbook, 'overview', here);
    for (const word of [
      '`cursor`',
      '`limit`',
      '`total`',
      '`nextCursor`',
      '`view: "compact"`',
      '`areaId`',
      '`collectionId`',
      '`nameContains`',
    ]) {
      assert.ok(overview.includes(word), word);
    }
  });

  it('tables say the same without the padding people read the file with', () => {
    const errors = playbookMarkdown(playbook, 'errors', here);
    const fileRows = file.split('\n').filter((l) => l.startsWith('| `'));
    assert.ok(fileRows.length >= 14);
    for (const row of errors.split('\n').filter((l) => l.startsWith('|'))) assert.doesNotMatch(row, / {2}|-{4}/);
    const cells = (row: string) => row.split('|').map((c) => c.trim());
    const answered = new Set(
      errors
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .map((r) => cells(r).join('|')),
    );
    for (const row of fileRows.filter((r) => /not_found|stale_editor|rate_limited/.test(r))) {
      assert.ok(answered.has(cells(row).join('|')), row);
    }
  });
});

describe('get_authoring_guide over REST and MCP', () => {
  let h: Harness;
  before(async () => {
    h = await startServer({});
  });
  after(async () => {
    await h?.close();
  });

  for (const t of transports) {
    describe(`over ${t}`, () => {
      let api: Api;
      before(() => {
        api = apiFor(h, t, h.alice.readKey);
      });
      after(async () => {
        await api?.close();
      });

      it('answers the overview by default, with this service’s exact addresses', async () => {
        const a = await api.call('get_authoring_guide');
        assertOk(a);
        const md: string = a.body.markdown;
        assert.ok(md.includes('## Topics'), 'the overview');
        assert.ok(md.includes(`POST ${h.baseUrl}/media/upload\``), 'the upload address');
        assert.ok(md.includes(`POST ${h.baseUrl}/media/upload-batch\``), 'the batch upload address');
        assert.ok(md.includes(`MCP: \`${h.mcpUrl}\``));
        assert.doesNotMatch(md, /\{base_url\}|\{mcp_url\}/, 'no placeholder left');
        if (t === 'rest') {
          assert.equal(a.body.topic, 'overview');
          assert.deepEqual(
            a.body.topics,
            playbookTopics.map((p) => p.topic),
          );
        }
      });

      it('answers a topic, and the whole playbook with all', async () => {
        const photos = await api.call('get_authoring_guide', { topic: 'photos' });
        assertOk(photos);
        assert.match(photos.body.markdown, /### 10\. Photos/);
        assert.ok(photos.body.markdown.includes(`(\`POST ${h.baseUrl}/media/upload\`)`));
        assert.doesNotMatch(photos.body.markdown, /## Rules you must keep/);
        const all = await api.call('get_authoring_guide', { topic: 'all' });
        assertOk(all);
        for (const s of playbook.sections) assert.ok(all.body.markdown.includes(s.heading), s.heading);
      });

      it('refuses a topic it does not have (its schema lists the ones it has)', async () => {
        const a = await api.call('get_authoring_guide', { topic: 'pricing' });
        assertError(a, 'invalid_argument', 'topic');
      });
    });
  }

  it('over MCP the playbook is its markdown alone: no structured copy', async () => {
    const { mcpClient } = await import('../helpers/mcp.ts');
    const client = await mcpClient(h.mcpUrl, h.alice.readKey);
    try {
      const result = await client.callTool({ name: 'get_authoring_guide', arguments: { topic: 'spots' } });
      assert.equal(result.structuredContent, undefined);
      const content = result.content as Array<{ type: string; text: string }>;
      assert.equal(content.length, 1);
      assert.match(content[0]?.text ?? '', /topic `spots`/);
    } finally {
      await client.close();
    }
  });

  it('a photo sent to the upload address the playbook gives is stored', async () => {
    const guide = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Upload address' });
    assert.equal(guide.status, 201);
    const overview = await rest(h.baseUrl, h.alice.writeKey, 'GET', '/authoring-guide');
    const upload = /`POST (\S+)` for one photo/.exec(overview.body.markdown)?.[1];
    assert.equal(upload, `${h.baseUrl}/media/upload`);
    const me = await rest(h.baseUrl, h.alice.writeKey, 'GET', '/me');
    assert.equal(me.body.addresses.upload, upload, 'whoami says the same');
    const res = await fetch(`${upload}?productId=${guide.body.productId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.alice.writeKey}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(await phoneJpeg()),
    });
    assert.equal(res.status, 201, await res.clone().text());
  });
});

describe('the addresses follow PUBLIC_URL', () => {
  let h: Harness;
  before(async () => {
    // Never contacted: the answers only name it.
    h = await startServer({ env: { PUBLIC_URL: 'https://guides.example.test' } });
  });
  after(async () => {
    await h?.close();
  });

  for (const t of transports) {
    it(`over ${t}: whoami and the playbook name the public addresses, not the one the server listens on`, async () => {
      const api = apiFor(h, t, h.alice.readKey);
      try {
        const me = await api.call('whoami');
        assertOk(me);
        assert.deepEqual(me.body.addresses, {
          api: 'https://guides.example.test/api/v1',
          mcp: 'https://guides.example.test/mcp',
          upload: 'https://guides.example.test/api/v1/media/upload',
          uploadBatch: 'https://guides.example.test/api/v1/media/upload-batch',
        });
        const guide = await api.call('get_authoring_guide');
        assert.ok(guide.body.markdown.includes('`POST https://guides.example.test/api/v1/media/upload`'));
        assert.ok(!guide.body.markdown.includes('127.0.0.1'));
      } finally {
        await api.close();
      }
    });
  }
});
