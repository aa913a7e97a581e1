import { z } from 'zod';
import { fixedListNote } from '../../shared/notes.ts';
import { text } from '../../shared/text.ts';

/** Where each platform's profile pages live; a social link must point there. */
export const socialHosts = {
  instagram: ['instagram.com'],
  tiktok: ['tiktok.com'],
  youtube: ['youtube.com', 'youtu.be'],
} as const;

export type SocialPlatform = keyof typeof socialHosts;

const platforms = Object.keys(socialHosts) as [SocialPlatform, ...SocialPlatform[]];

function onPlatformHost(platform: SocialPlatform, url: string): boolean {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
    host = parsed.hostname.toLowerCase();
  } catch {
    return false;
  }
  return socialHosts[platform].some((h) => host === h || host.endsWith(`.${h}`));
}

/** Which hosts each platform's address may use, where the model reads `url`. */
const socialUrlNote = fixedListNote(
  `The profile's address, https on its platform's host: ${platforms
    .map((p) => `${p} ${socialHosts[p].join(' or ')}`)
    .join(', ')}`,
);

export const socialLinkSchema = z
  .strictObject({
    platform: z.enum(platforms),
    handle: text(100)
      .min(1)
      .refine((s) => s.trim().length > 0 && !/\s/.test(s.trim()), { message: 'must be a handle without spaces' })
      .describe('The account handle without spaces, e.g. "@alpinetrails"'),
    url: z.string().max(500).describe(socialUrlNote),
    followerCount: z.number().int().min(0).optional().describe('Followers, as the creator reports them'),
  })
  .superRefine((link, ctx) => {
    if (!onPlatformHost(link.platform, link.url)) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        input: link.url,
        message: `must be a web address (https) on ${socialHosts[link.platform].join(' or ')} for a ${link.platform} link`,
      });
    }
  });

export type SocialLink = z.infer<typeof socialLinkSchema>;

export const profileSchema = z.object({
  creatorId: z.string(),
  slug: z.string(),
  displayName: z.string(),
  realName: z.string().nullable(),
  bio: z.string().nullable(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  socials: z.array(socialLinkSchema),
  role: z.enum(['owner', 'editor']),
});

export type Profile = z.infer<typeof profileSchema>;
