import type { BodyKind } from '../../core/operation.ts';

/**
 * A day's GPX logged every second is about 2.7 MB, over the 2 MB JSON limit; the operations that
 * take a track accept up to 8 MiB over REST (a 5 MiB GPX, escaped into JSON, fits). MCP messages
 * stay at the specification's 2 MB.
 */
export const TRACK_BODY: BodyKind = { kind: 'json', maxBytes: 8 * 1024 * 1024 };
