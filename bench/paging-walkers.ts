/**
 * Worker thread: `clients` loops, each walking every page of a guide's spots again and again over
 * REST (default page, full records), until told to stop; then it posts how many pages were read.
 * It runs apart from the thread that times another creator's reads, so that parsing the pages
 * here never delays those timings in the client.
 */
import { parentPort, workerData } from 'node:worker_threads';

interface Walkers {
  origin: string;
  key: string;
  productId: string;
  clients: number;
}

const { origin, key, productId, clients } = workerData as Walkers;
let stopping = false;
let pages = 0;
let failures = 0;

parentPort?.on('message', (message: unknown) => {
  if (message === 'stop') stopping = true;
});

async function walker(): Promise<void> {
  let cursor: string | undefined;
  while (!stopping) {
    const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(`${origin}/api/v1/guides/${productId}/spots${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { nextCursor?: string };
    if (res.status !== 200) failures += 1;
    pages += 1;
    cursor = body.nextCursor;
  }
}

await Promise.all(Array.from({ length: clients }, walker));
parentPort?.postMessage({ pages, failures });
