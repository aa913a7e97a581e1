import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow after a full collection: to 3x what it kept (1 + 200/100),
 * a fixed factor instead of V8's own, which it derives from how fast the program allocates. This
 * server allocates little between requests (a photo's bytes live outside the heap), so V8 gave it
 * its minimum, ~1.1x of a ~40 MB heap (at least 8 MB), and starts marking as soon as the room left
 * is below the young generation's 32 MB: at once, after every collection. Each upload then paid a
 * full collection, ~40-60 ms of CPU on the cores libvips renders with. With the room at 2x the live
 * heap (~80 MB here), marking starts once ~50 MB more are kept, which uploads reach rarely; a
 * heavily allocating load got up to 4x under V8's own rule, so it keeps about the rhythm it had.
 * The heap may hold that much more garbage (~80 MB of the 600 MB budget). A V8 setting for the
 * whole process, read at each collection: set where a server process starts (main.ts, the bench's
 * app server), before any request; NODE_OPTIONS does not take it.
 */
export const HEAP_GROWING_PERCENT = 200;

export function applyHeapPolicy(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
