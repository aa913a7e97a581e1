import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

/**
 * A JSON body or MCP message over the 2 MB limit is refused while the client is still sending:
 * the client must still read its 413, not a reset connection ("fetch failed").
 */
const ROUNDS = 10;
/** Four callers at once, two sending 3 MB and two 8 MB (the largest body any route takes). */
const SIZES_MB = [3, 8, 3, 8];

/**
 * Node's fetch in a process of its own, as a real client is: in the server's own process the
 * client reads each answer before the server's close reaches it, and never sees the reset.
 * Prints one line per call: the status and error code, or why fetch failed.
 */
const CLIENT = `
const [url, headers, prefix, sizes, suffix, rounds] = process.argv.slice(1);
const bodies = sizes.split(',').map((megabytes) =>
  prefix + '"' + 'a'.repeat(Number(megabytes) * 1024 * 1024) + '"' + suffix);
for (let round = 0; round < Number(rounds); round++) {
  const answers = await Promise.all(bodies.map(async (body, caller) => {
    try {
      const res = await fetch(url, { method: 'POST', headers: JSON.parse(headers), body });
      const answer = await res.json();
      return sizes.split(',')[caller] + ' MB: ' + res.status + ' ' + answer.error?.code;
    } catch (err) {
      return sizes.split(',')[caller] + ' MB: ' + err.message + ' (' + err.cause + ')';
    }
  }));
  process.stdout.write(answers.join('\\n') + '\\n');
}`;

function callFromAnotherProcess(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', CLIENT, ...args], (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(stdout.split('\n').filter(Boolean));
    });
  });
}

for (const { dialect, skip } of await testDialects()) {
  describe(`bodies over the limit are answered, not cut off (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect });
    });
    after(async () => h?.close());

    const targets = () => [
      {
        name: 'REST create_guide',
        url: `${h.baseUrl}/guides`,
        headers: { 'content-type': 'application/json' },
        prefix: '{"name":"Too big","summary":',
        suffix: '}',
      },
      {
        name: 'MCP tools/call',
        url: h.mcpUrl,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        prefix: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_guide","arguments":{"name":',
        suffix: '}}}',
      },
    ];

    for (const index of [0, 1]) {
      test(`four callers at once sending 3 and 8 MB read 413 payload_too_large (${index === 0 ? 'REST' : 'MCP'})`, async () => {
        const target = targets()[index]!;
        const headers = JSON.stringify({ ...target.headers, authorization: `Bearer ${h.alice.writeKey}` });
        const outcomes = await callFromAnotherProcess([
          target.url,
          headers,
          target.prefix,
          SIZES_MB.join(','),
          target.suffix,
          String(ROUNDS),
        ]);
        assert.equal(outcomes.length, ROUNDS * SIZES_MB.length);
        const wrong = outcomes.filter((outcome) => !outcome.endsWith(' MB: 413 payload_too_large'));
        assert.deepEqual(wrong, [], `${target.name}: ${wrong.length} of ${outcomes.length} answers were not the 413`);
      });
    }
  });
}
