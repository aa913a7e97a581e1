import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/**
 * Requests written raw on a socket and their answers read whole, so that two servers' answers can be
 * compared byte for byte (tests of the paths answered before Fastify: rest-early, mcp-early).
 */

/** The whole answer to one request written raw on a fresh connection, as bytes read. */
export function exchange(origin: string, request: string): Promise<Buffer> {
  const { hostname, port } = new URL(origin);
  const head = request.startsWith('HEAD ');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const headers = received.subarray(0, end).toString('latin1');
      const length = head ? 0 : Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1] ?? Number.NaN);
      if (received.length >= end + 4 + length) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(10_000, () => reject(new Error(`no whole answer to ${request.split('\r\n')[0]}`)));
  });
}

/** The answer with what may differ between two answers to the same request a moment apart set aside. */
export function comparable(received: Buffer): string {
  // A compressed body is compared as its text: the cursor in it differs.
  const end = received.indexOf('\r\n\r\n') + 4;
  const encoding = /\r\ncontent-encoding: (\w+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1];
  const body = received.subarray(end);
  const text = encoding === 'gzip' ? gunzipSync(body) : encoding === 'br' ? brotliDecompressSync(body) : body;
  const head = received.subarray(0, end).toString('latin1');
  return (
    ((encoding ? head.replace(/content-length: \d+/i, 'content-length: (compressed)') : head) + text.toString('utf8'))
      .replace(/\r\ndate: [^\r]*/i, '\r\ndate: (now)')
      .replace(/;t=\d+/g, ';t=(reset)')
      .replace(/"retryAfterMs":\d+/, '"retryAfterMs":(ms)')
      // A page's cursor is sealed with a fresh nonce each time.
      .replace(/"nextCursor":"[^"]+"/, '"nextCursor":(sealed)')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '(uuid)')
  );
}

/** A request as written on the wire, with a Host header first. */
export function rawRequest(path: string, headers: Record<string, string> = {}, method = 'GET', body = ''): string {
  const lines = Object.entries({ host: 'localhost', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n${body}`;
}
