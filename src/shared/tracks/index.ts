// The track library: the line a route or hike carries, its input forms (points, GeoJSON, GPX) and
// the figures measured on it. No resource of its own: routes and hikes, and their operations, are
// the routes resource (src/resources/routes/).

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
