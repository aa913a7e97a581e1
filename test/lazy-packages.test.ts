import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mcpClient } from './helpers/mcp.ts';
import { loaded, serviceLoading } from './helpers/module-loading.ts';

/**
 * What a start loads (docs/decisions/performance.md, "Loaded when used"): a package that only some
 * settings or some requests need is loaded by the first call that needs it, never by the start,
 * and the call that loads it is answered as any other.
 */
const MCP = ['/@modelcontextprotocol/server/', '/src/transports/mcp-endpoint.ts'];
const OAUTH = ['/oidc-provider/', '/koa/', '/jose/'];
const ON_FIRST_USE = [
  ...MCP,
  ...OAUTH,
  // Link checks and client metadata documents.
  '/node_modules/undici/',
  // Photos: decoding, their EXIF, the bucket.
  '/sharp/',
  '/exifr/',
  '/@aws-sdk/',
  // The studio's passwords and mail.
  '/@node-rs/argon2/',
  '/nodemailer/',
  // A PostgreSQL store, Redis, a GPX track.
  '/node_modules/pg/',
  '/src/db/pg-store.ts',
  '/ioredis/',
  '/@rgrove/parse-xml/',
  // A CSV imported (import_spots): the CSV parser.
  '/papaparse/',
  // An export (export_guide, a download): the map writers, the archive's zip compressor; an archive
  // imported (import_guide): its reader and the import.
  '/src/resources/files/writers/kml.ts',
  '/src/resources/files/writers/gpx.ts',
  '/src/resources/files/writers/geojson.ts',
  '/fflate/',
  '/src/resources/files/archive/archive-reader.ts',
  '/src/resources/files/archive/guide-import.ts',
  // What no setting uses: country names in 80 languages, the rate limiter's other stores, Fastify's
  // route schema compilers.
  '/i18n-iso-countries/langs/',
  '/rate-limiter-flexible/index.js',
  '/@fastify/ajv-compiler/',
];

/**
 * Node's own copy of undici, which reading a global such as `FormData` or `WebSocket` loads (~40 ms
 * of CPU): the studio's form reading does not read `FormData` (studio/web/form-parts.ts).
 */
const NODE_UNDICI = 'NativeModule internal/deps/undici/undici';

describe('a start loads only what every request needs', () => {
  it('with the default settings, none of the packages loaded on first use', async () => {
    const modules = await serviceLoading({}, async (_banner, base) => {
      assert.equal((await fetch(`${base}/readyz`)).status, 200);
    });
    assert.ok(
      modules.some((m) => m.endsWith('/src/app.ts')),
      'the recorder saw the app load',
    );
    assert.deepEqual(loaded(modules, ON_FIRST_USE), []);
    assert.ok(
      modules.some((m) => m.startsWith('NativeModule internal/')),
      'the recorder saw Node load its own modules',
    );
    assert.deepEqual(loaded(modules, [NODE_UNDICI]), []);
  });

  it('the first MCP call and the first OAuth request load what they need, and are answered', async () => {
    const modules = await serviceLoading({}, async (banner, base) => {
      const key = /Demo key (sk_service_\S+)/.exec(banner)?.[1];
      assert.ok(key, banner);
      const client = await mcpClient(`${base}/mcp`, key);
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === 'list_guides'));
      await client.close();
      const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`);
      assert.equal(metadata.status, 200);
      assert.equal(((await metadata.json()) as { issuer: string }).issuer, base);
    });
    assert.deepEqual(loaded(modules, [...MCP, ...OAUTH]), [...MCP, ...OAUTH]);
    assert.deepEqual(loaded(modules, ON_FIRST_USE.slice(MCP.length + OAUTH.length)), []);
  });
});
