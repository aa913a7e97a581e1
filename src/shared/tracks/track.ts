import { simplifyToCap } from './simplify-track.ts';
import type { HikeLine, HikeTrackInput, Position, TrackFigures } from './track.schema.ts';
import { measureTrack } from './track-figures.ts';

/** A track ready to store: the line to keep, what the whole track measured, and notes for the caller. */
export interface PreparedTrack {
  line: HikeLine;
  figures: TrackFigures;
  warnings: string[];
}

/**
 * Turns a validated `track` input into the stored line. The figures are measured on every point
 * sent, before simplification drops any. `path` names the field in refusals (`track`,
 * `hikes[2].track`); a GPX that is not a usable line is refused at `${path}.gpx`. The GPX reader
 * (and its XML parser) is loaded by the first track sent as GPX, not by the start.
 */
export async function prepareTrack(input: HikeTrackInput, path: string): Promise<PreparedTrack> {
  let points: Position[];
  let warnings: string[] = [];
  if ('gpx' in input) ({ points, warnings } = (await import('./gpx.ts')).parseGpx(input.gpx, `${path}.gpx`));
  else points = 'points' in input ? input.points : input.coordinates;
  const figures = measureTrack(points);
  const simplified = simplifyToCap(points);
  if (simplified.toleranceM > 0) {
    warnings.push(
      `The track's ${points.length.toLocaleString('en')} points were simplified to ` +
        `${simplified.points.length.toLocaleString('en')} for storage (nothing moved by more than ` +
        `${simplified.toleranceM} m); its figures were measured on all of them.`,
    );
  }
  return { line: { type: 'LineString', coordinates: simplified.points }, figures, warnings };
}
