/**
 * What receiving the bench photo costs before any image work, taking turns, against a node:http
 * server in a child process (started with npm start's allocator settings) that reads the body as
 * the app's readRaw does and answers when it has it:
 *   fetch     the bench client's old way: fetch with the body as a Uint8Array
 *   fresh     bench/post-bytes.ts; the server reads into a fresh buffer of the declared length
 *   kept      bench/post-bytes.ts; the server reads into a kept buffer (transports/kept-bodies.ts)
 * Per POST (medians): the whole POST as the client times it, the time until the server saw the
 * request, the body's arrival, and the server's main-thread CPU from arrival to the last byte.
 * Run: npx node bench/upload-client.ts [turns]
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeptBodies } from '../src/transports/kept-bodies.ts';
import { npmStartEnv } from './ipc.ts';
import { median } from './json-call.ts';
import { makeBenchJpeg } from './media-pipeline.ts';
import { closeConnections, postBytes } from './post-bytes.ts';

/** Wall-clock ms comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

interface Seen {
  arrived: number;
  ended: number;
  mainCpuMs: number;
}

if (process.argv[2] === '--server') {
  const kept = new KeptBodies(6 * 1024 * 1024, 1);
  const server = createServer((req, res) => {
    const arrived = now();
    const cpu0 = process.threadCpuUsage();
    const declared = Number(req.headers['content-length']);
    const fromKept = req.url === '/kept' ? kept.take(declared) : undefined;
    const body = fromKept ?? Buffer.allocUnsafe(declared);
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      chunk.copy(body, size);
      size += chunk.length;
    });
    req.on('end', () => {
      const cpu = process.threadCpuUsage(cpu0);
      if (fromKept) kept.giveBack(fromKept);
      const seen: Seen = { arrived, ended: now(), mainCpuMs: (cpu.user + cpu.system) / 1000 };
      res.writeHead(201).end(JSON.stringify(seen));
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
} else {
  const turns = Number(process.argv[2] ?? 25);
  const child = fork(new URL(import.meta.url).pathname, ['--server'], { env: { ...process.env, ...npmStartEnv() } });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  const origin = `http://127.0.0.1:${port}`;
  const jpeg = await makeBenchJpeg();
  const headers = { 'content-type': 'image/jpeg' };
  const fetchBody = new Uint8Array(jpeg);
  const clients: Record<string, () => Promise<string>> = {
    fetch: async () => (await fetch(`${origin}/fresh`, { method: 'POST', headers, body: fetchBody })).text(),
    fresh: async () => (await postBytes(`${origin}/fresh`, headers, jpeg)).text,
    kept: async () => (await postBytes(`${origin}/kept`, headers, jpeg)).text,
  };
  const times = new Map(Object.keys(clients).map((name) => [name, [] as number[][]]));
  for (let i = 0; i < turns + 3; i++) {
    for (const [name, send] of Object.entries(clients)) {
      const start = now();
      const seen = JSON.parse(await send()) as Seen;
      const end = now();
      if (i >= 3) {
        times.get(name)?.push([end - start, seen.arrived - start, seen.ended - seen.arrived, seen.mainCpuMs]);
      }
    }
  }
  const ms = (rows: number[][], i: number) => median(rows.map((r) => r[i] as number)).toFixed(1);
  console.log(`${jpeg.length} bytes, ${turns} turns each (medians, ms)`);
  for (const [name, rows] of times) {
    console.log(
      `${name.padEnd(6)} POST ${ms(rows, 0)}  until the server saw it ${ms(rows, 1)}  body ${ms(rows, 2)}  server main thread ${ms(rows, 3)}`,
    );
  }
  closeConnections();
  child.kill();
}
