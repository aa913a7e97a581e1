/**
 * Child process: the baseline. A bare node:http server on a free loopback port that answers each
 * path it was given with fixed bytes and content type, whatever the method: the exact answers the
 * app gave at setup (GET /api/v1/guides/{id}, GET …/spots, POST …/spots/batch). The parent writes
 * them to the JSON file BENCH_ROUTES names, { [path]: { body (base64), contentType } } (a megabyte
 * does not fit in an environment variable). Other paths answer 404.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onStop, type ReadyMessage } from './ipc.ts';

/** What the parent sends for one path. */
export interface RawRoute {
  body: string;
  contentType: string;
}

const given = JSON.parse(readFileSync(process.env.BENCH_ROUTES ?? '', 'utf8')) as Record<string, RawRoute>;
const routes = new Map(
  Object.entries(given).map(([path, { body, contentType }]) => {
    const bytes = Buffer.from(body, 'base64');
    return [path, { body: bytes, headers: { 'content-type': contentType, 'content-length': String(bytes.length) } }];
  }),
);
const notFound = Buffer.from('{"error":"no such path on the raw bench server"}');

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const route = routes.get(query === -1 ? url : url.slice(0, query));
  // Drain any request body so keep-alive connections stay usable, then answer.
  req.resume();
  req.on('end', () => {
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': String(notFound.length) });
      res.end(notFound);
      return;
    }
    res.writeHead(200, route.headers);
    res.end(route.body);
  });
});
server.keepAliveTimeout = 72_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  onStop(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const ready: ReadyMessage = { type: 'ready', origin: `http://127.0.0.1:${port}` };
  process.send?.(ready);
});
