import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { noRateLimits, useServer } from './helpers/api.ts';

const root = new URL('..', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** The fenced blocks of a language, in order. */
function blocks(lang: string): string[] {
  return [...readme.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1] as string);
}

interface HttpServerEntry {
  type?: string;
  url: string;
  headers: Record<string, string>;
}

const KEY_PLACEHOLDERS = /sk_service_…|\$\{input:[\w-]+\}/;

describe('README', () => {
  test('its first screen is true: npm install, npm start and npm test are what package.json runs', () => {
    const first = blocks('sh')[0] ?? '';
    assert.deepEqual(
      [...first.matchAll(/^npm (\w+)/gm)].map((m) => m[1]),
      ['install', 'start', 'test'],
    );
    const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: object }).scripts;
    assert.ok('start' in scripts && 'test' in scripts);
  });

  test('every setting src/config.ts reads has its row in the configuration table', () => {
    const config = readFileSync(new URL('src/config.ts', root), 'utf8');
    const schema = config.slice(
      config.indexOf('const envSchema'),
      config.indexOf('});', config.indexOf('const envSchema')),
    );
    const settings = [...schema.matchAll(/^ {2}([A-Z_]+):/gm)].map((m) => m[1] as string);
    assert.ok(settings.includes('CORS_ORIGINS') && settings.includes('PORT'), settings.join(', '));
    for (const name of settings) assert.match(readme, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
  });

  test('the MCP configurations parse, and VS Code gets its own "servers" shape', () => {
    const configs = blocks('json').map((text) => JSON.parse(text) as Record<string, Record<string, unknown>>);
    const vscode = configs.find((c) => 'servers' in c);
    assert.ok(vscode, 'a .vscode/mcp.json example with "servers"');
    assert.match(readme, /`servers` in `\.vscode\/mcp\.json`/);
    assert.ok(configs.some((c) => (c.mcpServers?.['travel-guides'] as HttpServerEntry | undefined)?.type === 'http'));
    const bridged = configs
      .map((c) => c.mcpServers?.['travel-guides'] as { command?: string; args?: string[] } | undefined)
      .find((entry) => entry?.command === 'npx');
    assert.ok(bridged?.args?.includes('mcp-remote') && bridged.args.includes('--header'), 'an mcp-remote entry');
    assert.match(
      readme,
      /^npx -y mcp-remote http:\/\/127\.0\.0\.1:8080\/mcp --header "Authorization: Bearer \$\{KEY\}"$/m,
    );
  });

  describe('its HTTP client configurations connect, with a real key in place of the placeholder', () => {
    const s = useServer({ env: noRateLimits });

    test('mcpServers and VS Code servers entries list the tools', async () => {
      const entries = blocks('json')
        .map((text) => JSON.parse(text) as Record<string, Record<string, HttpServerEntry>>)
        .flatMap((c) => Object.values(c.servers ?? c.mcpServers ?? {}))
        .filter((entry) => typeof entry.url === 'string');
      assert.equal(entries.length, 2);
      for (const entry of entries) {
        const url = new URL(new URL(entry.url).pathname, s.h.origin);
        const headers = Object.fromEntries(
          Object.entries(entry.headers).map(([name, value]) => [
            name,
            value.replace(KEY_PLACEHOLDERS, s.h.alice.readKey),
          ]),
        );
        assert.equal(headers.Authorization, `Bearer ${s.h.alice.readKey}`);
        const client = new Client({ name: 'readme-check', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
        try {
          const { tools } = await client.listTools();
          assert.ok(tools.some((t) => t.name === 'get_authoring_guide'));
        } finally {
          await client.close();
        }
      }
    });
  });
});
