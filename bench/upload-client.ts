/**
 * What the bench's client costs an upload: the 12 MP bench JPEG POSTed with fetch and with
 * bench/post-bytes.ts, taking turns, to a node:http server in a child process that only reads the
 * body and answers when it has it. Per POST (medians): the whole POST as the client times it, the
 * time until the server saw the request, the body's arrival, and the answer's way back.
 * Run: npx node bench/upload-client.ts [turns]
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { median } from './json-call.ts';
import { makeBenchJpeg } from './media-pipeline.ts';
import { closeConnections, postBytes } from './post-bytes.ts';

/** Wall-clock ms comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

interface Seen {
  arrived: number;
  ended: number;
}

if (process.argv[2] === '--server') {
  const server = createServer((req, res) => {
    const arrived = now();
    req.resume();
    req.on('end', () => res.writeHead(201).end(JSON.stringify({ arrived, ended: now() } satisfies Seen)));
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
} else {
  const turns = Number(process.argv[2] ?? 25);
  const child = fork(new URL(import.meta.url).pathname, ['--server']);
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  const url = `http://127.0.0.1:${port}/`;
  const jpeg = await makeBenchJpeg();
  const headers = { 'content-type': 'image/jpeg' };
  const fetchBody = new Uint8Array(jpeg);
  const clients: Record<string, () => Promise<string>> = {
    fetch: async () => (await fetch(url, { method: 'POST', headers, body: fetchBody })).text(),
    'post-bytes': async () => (await postBytes(url, headers, jpeg)).text,
  };
  const times = new Map(Object.keys(clients).map((name) => [name, [] as number[][]]));
  for (let i = 0; i < turns + 3; i++) {
    for (const [name, send] of Object.entries(clients)) {
      const start = now();
      const seen = JSON.parse(await send()) as Seen;
      const end = now();
      if (i >= 3)
        times.get(name)?.push([end - start, seen.arrived - start, seen.ended - seen.arrived, end - seen.ended]);
    }
  }
  const ms = (rows: number[][], i: number) => median(rows.map((r) => r[i] as number)).toFixed(1);
  console.log(`${jpeg.length} bytes, ${turns} turns each (medians, ms)`);
  for (const [name, rows] of times) {
    console.log(
      `${name.padEnd(11)} POST ${ms(rows, 0)}  until the server saw it ${ms(rows, 1)}  body ${ms(rows, 2)}  answer back ${ms(rows, 3)}`,
    );
  }
  closeConnections();
  child.kill();
}
