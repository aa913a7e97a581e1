import { z } from 'zod';

export const latitudeSchema = z
  .number()
  .min(-90)
  .max(90)
  .meta({ id: 'Latitude', description: 'Decimal degrees, -90 to 90' });
export const longitudeSchema = z
  .number()
  .min(-180)
  .max(180)
  .meta({ id: 'Longitude', description: 'Decimal degrees, -180 to 180' });
export const zoomSchema = z.number().min(0).max(22).describe('Map zoom level, 0 (world) to 22 (building)');

/** [west, south, east, north]; west may exceed east for a box across the antimeridian. */
export const bboxSchema = z
  .tuple([longitudeSchema, latitudeSchema, longitudeSchema, latitudeSchema])
  .refine(([, south, , north]) => south <= north, { message: 'south (2nd number) must not be above north (4th)' })
  .meta({
    id: 'Bbox',
    description: '[west, south, east, north] in decimal degrees; west may exceed east across the antimeridian',
  });

export type Bbox = z.infer<typeof bboxSchema>;

export function bboxContains([west, south, east, north]: Bbox, lat: number, lon: number): boolean {
  if (lat < south || lat > north) return false;
  return west <= east ? lon >= west && lon <= east : lon >= west || lon <= east;
}

/**
 * A coordinate pair given by halves: one half alone would put a pin on a line, not a point. Names
 * the missing half and says so, or undefined when both or neither are given.
 */
export function unpairedCoordinate(
  value: Readonly<Record<string, unknown>>,
  lat: string,
  lon: string,
): { missing: string; message: string } | undefined {
  if ((value[lat] === undefined) === (value[lon] === undefined)) return undefined;
  return { missing: value[lat] === undefined ? lat : lon, message: `give ${lat} and ${lon} together` };
}
