/**
 * Child process: the baseline. A bare node:http server that answers every request with the same
 * bytes and content type the app sent for GET /api/v1/guides/{id} (given in BENCH_RAW_BODY as
 * base64 and BENCH_RAW_CONTENT_TYPE), on a free loopback port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onStop, type ReadyMessage } from './ipc.ts';

const body = Buffer.from(process.env.BENCH_RAW_BODY ?? '', 'base64');
const contentType = process.env.BENCH_RAW_CONTENT_TYPE ?? 'application/json; charset=utf-8';
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = createServer((req, res) => {
  // Drain any request body so keep-alive connections stay usable, then answer.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(body);
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
