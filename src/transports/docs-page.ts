import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from './rest.ts';

/**
 * The human-readable API reference at /docs: Swagger UI (swagger-ui-dist) reading the OpenAPI
 * document. Every byte the page needs comes from this service, so it works with no internet.
 */
export const DOCS_PATH = '/docs';

const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const VIEWER_VERSION = (JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8')) as { version: string }).version;

// validatorUrl: null, or the viewer asks validator.swagger.io for a badge; the top bar
// (StandaloneLayout) is left out because it lets a reader load a document from anywhere.
const viewerConfig = {
  url: `${API_PREFIX}/openapi.json`,
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
  displayOperationId: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: -1,
  filter: true,
};
const INIT_JS = `window.ui = SwaggerUIBundle(${JSON.stringify(viewerConfig)});\n`;

// The asset path names the viewer's version and our config, so both can be cached for good.
const ASSETS_PATH = `${DOCS_PATH}/assets/${VIEWER_VERSION}-${createHash('sha256').update(INIT_JS).digest('hex').slice(0, 8)}`;
const ONE_YEAR = 'public, max-age=31536000, immutable';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference: Creator API for travel guides</title>
<link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
<style>body { margin: 0; background: #fafafa; }</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}/init.js"></script>
</body>
</html>
`;

interface Asset {
  type: string;
  body: Buffer;
  gzip?: Buffer;
}

const FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

let assets: Map<string, Asset> | undefined;

/** Read and compressed once per process, on the first request: most servers never serve the page. */
function loadAssets(): Map<string, Asset> {
  if (assets) return assets;
  const textAsset = (type: string, body: Buffer): Asset => ({ type, body, gzip: gzipSync(body) });
  assets = new Map([['init.js', textAsset('text/javascript; charset=utf-8', Buffer.from(INIT_JS))]]);
  for (const [name, type] of Object.entries(FILES)) {
    const body = readFileSync(join(DIST, name));
    assets.set(name, type.startsWith('text/') ? textAsset(type, body) : { type, body });
  }
  return assets;
}

/** What the browser may load: only this service; "Try it out" may also call the public address. */
function contentSecurityPolicy(publicUrl: string): string {
  let api = '';
  try {
    api = ` ${new URL(publicUrl).origin}`;
  } catch {}
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${api}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** GET /docs (and /docs/): the page, and its assets under /docs/assets/. No key needed. */
export function registerDocsPage(fastify: FastifyInstance, urls: { publicUrl: string }): void {
  const page = (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', contentSecurityPolicy(urls.publicUrl))
      .header('x-content-type-options', 'nosniff')
      .send(PAGE);
  fastify.get(DOCS_PATH, page);
  fastify.get(`${DOCS_PATH}/`, page);

  fastify.get<{ Params: { name: string } }>(`${ASSETS_PATH}/:name`, (request, reply) => {
    const asset = loadAssets().get(request.params.name);
    if (!asset) return reply.callNotFound();
    reply.type(asset.type).header('cache-control', ONE_YEAR).header('x-content-type-options', 'nosniff');
    if (!asset.gzip) return reply.send(asset.body);
    reply.header('vary', 'accept-encoding');
    if (!/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.send(asset.body);
    return reply.header('content-encoding', 'gzip').send(asset.gzip);
  });
}
