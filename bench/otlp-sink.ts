import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP endpoint on loopback that takes every export and keeps nothing: what traces cost the app alone. */
export async function startOtlpSink(): Promise<{ endpoint: string; close: () => void }> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`, close: () => sink.close() };
}
