/**
 * Child process: the bare pipeline behind HTTP, for bench/upload-timeline.ts. A node:http server
 * that reads a photo's body whole and runs renderRenditions on it (the bench's baseline: the four
 * files, nothing written), then answers 201: what an upload costs at the least, transfer included,
 * in a process started as the app's is. Reports { origin } over IPC; stops on { type: 'stop' }.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyHeapPolicy } from '../src/heap-policy.ts';
import { renderRenditions } from '../src/resources/media/image-pipeline.ts';
import { onStop, type ReadyMessage } from './ipc.ts';

applyHeapPolicy();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    renderRenditions(Buffer.concat(chunks), 'jpeg').then(
      (files) => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(Object.keys(files))),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
onStop(() => new Promise<void>((resolve) => server.close(() => resolve())));
const ready: ReadyMessage = { type: 'ready', origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
process.send?.(ready);
