// The hike track library's public face: the line a route or hike carries, its input forms (points,
// GeoJSON, GPX) and the figures measured on it. The operations that store it live in ../routes.

export {
  type HikeLine,
  type HikeTrackInput,
  hikeLineSchema,
  hikeTrackInputSchema,
  type TrackFigures,
  trackFiguresSchema,
} from './track.schema.ts';
export { type PreparedTrack, prepareTrack } from './track.ts';
export { figureWarnings, type GivenFigures, haversineMeters } from './track-figures.ts';
