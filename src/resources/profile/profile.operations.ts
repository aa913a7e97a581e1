import { z } from 'zod';
import { addressesOf, addressesSchema } from '../../core/addresses.ts';
import type { Principal } from '../../core/auth.ts';
import { defineOperation } from '../../core/operation.ts';
import { API_VERSION, AUTHORING_GUIDE_VERSION, STABLE_SINCE } from '../../core/versions.ts';
import { clearable, requiredText, text } from '../../shared/text.ts';
import type { Creator } from './creator.store.ts';
import { profileExamples } from './examples.ts';
import { type Profile, profileSchema, socialLinkSchema } from './profile.schema.ts';

function toProfile(creator: Creator, principal: Principal): Profile {
  return {
    creatorId: creator.creatorId,
    slug: creator.slug,
    displayName: creator.displayName,
    realName: creator.realName,
    bio: creator.bio,
    email: creator.email,
    avatarUrl: creator.avatarUrl,
    socials: creator.socials,
    role: principal.role,
  };
}

export const whoami = defineOperation({
  name: 'whoami',
  title: 'Who am I',
  method: 'GET',
  path: '/me',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: profileExamples.whoami,
  description:
    'Tells which creator account the key acts for, what the key may do, the API and playbook versions, and the ' +
    'addresses to use (REST, MCP, the photo uploads). Call it first to learn whether you can write and publish.',
  input: z.strictObject({}),
  output: z.object({
    creatorId: z.string(),
    displayName: z.string(),
    role: z.enum(['owner', 'editor']),
    agreementAccepted: z.boolean(),
    key: z.object({
      keyId: z.string(),
      scopes: z.array(z.enum(['read', 'write', 'publish'])),
    }),
    apiVersion: z.string(),
    authoringGuideVersion: z.string(),
    addresses: addressesSchema,
  }),
  async handler(_input, ctx) {
    const creator = await ctx.stores.creators.require(ctx.principal.creatorId);
    const { principal } = ctx;
    const scopes: Array<'read' | 'write' | 'publish'> = ['read'];
    if (principal.scope === 'write') scopes.push('write');
    if (principal.scope === 'write' && principal.publish) scopes.push('publish');
    return {
      creatorId: creator.creatorId,
      displayName: creator.displayName,
      role: principal.role,
      agreementAccepted: creator.agreementAccepted,
      key: { keyId: principal.keyId, scopes },
      apiVersion: API_VERSION,
      authoringGuideVersion: AUTHORING_GUIDE_VERSION,
      addresses: addressesOf(ctx.urls.publicUrl),
    };
  },
});

export const getProfile = defineOperation({
  name: 'get_profile',
  title: "Get the creator's profile",
  method: 'GET',
  path: '/profile',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: profileExamples.get_profile,
  description: "Reads the creator's public profile and the key owner's role.",
  input: z.strictObject({}),
  output: profileSchema,
  async handler(_input, ctx) {
    return toProfile(await ctx.stores.creators.require(ctx.principal.creatorId), ctx.principal);
  },
});

export const updateProfile = defineOperation({
  name: 'update_profile',
  title: "Update the creator's profile",
  method: 'PATCH',
  path: '/profile',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: profileExamples.update_profile,
  description: 'Changes only the fields sent. The slug and the login email are read-only.',
  input: z.strictObject({
    displayName: requiredText(80).optional().describe('Public brand name, at most 80 characters'),
    realName: text(200).optional().describe('Legal name on the studio profile; "" clears it'),
  }),
  output: profileSchema,
  async handler(input, ctx) {
    const creators = ctx.stores.creators;
    await creators.update(ctx.principal.creatorId, {
      displayName: input.displayName,
      realName: clearable(input.realName),
    });
    return toProfile(await creators.require(ctx.principal.creatorId), ctx.principal);
  },
});

export const setProfileSocials = defineOperation({
  name: 'set_profile_socials',
  title: "Set the creator's social links",
  method: 'PUT',
  path: '/profile/socials',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: profileExamples.set_profile_socials,
  description: 'Replaces the social links whole: links left out are removed. At most 6.',
  input: z.strictObject({
    socials: z.array(socialLinkSchema).max(6).describe('Full replacement, at most 6; [] removes them all'),
  }),
  output: profileSchema,
  async handler(input, ctx) {
    const creators = ctx.stores.creators;
    await creators.update(ctx.principal.creatorId, { socials: input.socials });
    return toProfile(await creators.require(ctx.principal.creatorId), ctx.principal);
  },
});

export const profileOperations = [whoami, getProfile, updateProfile, setProfileSocials];
