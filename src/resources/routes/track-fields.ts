import type { CallContext } from '../../core/operation.ts';
import {
  figureWarnings,
  type GivenFigures,
  type HikeLine,
  type HikeTrackInput,
  type PreparedTrack,
  prepareTrack,
  type TrackFigures,
} from '../../shared/tracks/index.ts';

/**
 * Reading a track (parsing GPX, measuring, simplifying) takes time on a long one: it runs in the
 * operation's `prepare`, outside the store's transaction. Undefined when no line was sent.
 */
export async function prepareTrackInput(
  input: { track?: HikeTrackInput | null | undefined },
  ctx: CallContext,
): Promise<PreparedTrack | undefined> {
  if (input.track === undefined || input.track === null) return undefined;
  const prepared = await prepareTrack(input.track, 'track');
  for (const warning of prepared.warnings) ctx.warn(warning);
  return prepared;
}

/** The line a write stores and the figures the record keeps of it. */
export interface TrackChange {
  /** Undefined leaves the stored line as it is; null removes it. */
  track: HikeLine | null | undefined;
  trackFigures: TrackFigures | null;
}

/**
 * What a write does to the line: a new one replaces it whole, null removes it, nothing sent keeps
 * it. When the line or a figure was sent and a line is there, figures the creator gave that
 * disagree with it by more than a fifth are answered as warnings, never written over.
 */
export function applyTrack(
  sent: { track?: unknown; distanceKm?: unknown; gainM?: unknown; descentM?: unknown },
  prepared: PreparedTrack | undefined,
  current: TrackFigures | null,
  figures: GivenFigures,
  warn: (message: string) => void,
): TrackChange {
  const change: TrackChange =
    sent.track === undefined
      ? { track: undefined, trackFigures: current }
      : prepared
        ? { track: prepared.line, trackFigures: prepared.figures }
        : { track: null, trackFigures: null };
  const figuresSent = sent.distanceKm !== undefined || sent.gainM !== undefined || sent.descentM !== undefined;
  if (change.trackFigures && (sent.track !== undefined || figuresSent)) {
    for (const warning of figureWarnings(figures, change.trackFigures)) warn(warning);
  }
  return change;
}
