import { z } from 'zod';
import { countryOrWorldwideSchema } from '../../shared/codes.ts';
import { bboxSchema, latitudeSchema, longitudeSchema, zoomSchema } from '../../shared/geo.ts';
import { nameText, text } from '../../shared/text.ts';
import { areaSchema } from '../areas/index.ts';
import { propertySchema } from '../properties/index.ts';

export const storeTags = [
  'alpine',
  'beaches',
  'city',
  'food',
  'hiking',
  'islands',
  'lakes',
  'photography',
  'road-trips',
  'via-ferrata',
  'waterfalls',
  'wild-camping',
] as const;

export const guideNameSchema = nameText(120).describe('The guide title, 1 to 120 characters');

export const mapRegionSchema = z
  .strictObject({
    label: text(120).optional().describe('Name of the region shown on the map, at most 120 characters'),
    centerLat: latitudeSchema.optional(),
    centerLon: longitudeSchema.optional(),
    defaultZoom: zoomSchema.optional(),
    bbox: bboxSchema.optional().describe('[west, south, east, north]; should contain every spot'),
  })
  .describe('The opening map region of the guide');

export type MapRegion = z.infer<typeof mapRegionSchema>;

const nullableString = z.string().nullable();

export const guideSchema = z.object({
  productId: z.string(),
  name: z.string(),
  slug: z.string(),
  headline: nullableString,
  purchaseButtonText: nullableString,
  status: z.enum(['draft', 'published', 'archived']),
  visibleOnStore: z.boolean(),
  storeReviewStatus: z.enum(['pending', 'approved', 'rejected']).nullable(),
  storeReviewNote: nullableString,
  storeTags: z.array(z.string()),
  country: nullableString,
  reviewsShown: z.boolean(),
  buyerCountShown: z.boolean(),
  pricing: z.object({ oneTimeEnabled: z.boolean(), subscriptionIncluded: z.boolean(), currency: z.string() }),
  originalLanguage: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  publishedAt: z.number().nullable(),
  lastApiWriteAt: z.number().nullable(),
  region: mapRegionSchema.nullable(),
  areas: z.array(areaSchema),
  mapStyle: z
    .object({ basemap: z.string().optional(), pinStyle: z.string().optional(), themeColor: z.string().optional() })
    .nullable(),
  propertySchemaVersion: z.number().nullable(),
  properties: z.array(propertySchema),
  price: z.object({ amountMinor: z.number(), currency: z.string() }).nullable(),
  spotCount: z.number(),
  thumbnailUrl: nullableString,
  dashboardUrl: z.string(),
  salesPageUrl: z.string(),
});

export type Guide = z.infer<typeof guideSchema>;

export const guideWithCountsSchema = guideSchema.extend({ chapterCount: z.number(), photoCount: z.number() });

export type GuideWithCounts = z.infer<typeof guideWithCountsSchema>;

export const countrySchema = countryOrWorldwideSchema;

/** A guide in list_guides' compact view: what picks it out. */
export const compactGuideSchema = guideSchema.pick({
  productId: true,
  name: true,
  slug: true,
  status: true,
  updatedAt: true,
});

export type CompactGuide = z.infer<typeof compactGuideSchema>;
