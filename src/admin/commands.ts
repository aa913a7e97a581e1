import type { KeyScope, Role } from '../core/auth.ts';
import type { KeyStore } from '../core/keys.ts';
import type { CreatorsStore } from '../resources/profile/creator.store.ts';
import { type AccountsStore, FIRST_PASSWORD_LINK_MS } from '../studio/accounts/accounts.store.ts';
import type { Mailer } from '../studio/accounts/mailer.ts';
import { hashPassword, passwordProblem } from '../studio/accounts/passwords.ts';
import type { SessionsStore } from '../studio/accounts/sessions.store.ts';
import type { AgreementStore } from '../studio/agreement.store.ts';
import type { GuideStatus, StoreReviewStatus, StudioStore } from './studio.store.ts';

/** Bad input: the message goes to standard error and the command exits with 1. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What a command acts on: the same store the server uses. */
export interface StudioContext {
  creators: CreatorsStore;
  keys: KeyStore;
  studio: StudioStore;
  /** Puts a guide on sale through the publish gates, writing its first release (go-live.ts). */
  goLive(guideId: string): Promise<unknown>;
  /** Removes the photo files no row and no release names, written before `before` (ms). */
  sweepOrphanFiles(before: number): Promise<unknown>;
  /** The studio's passwords, sessions and the creator agreement. */
  accounts: AccountsStore;
  sessions: SessionsStore;
  agreement: AgreementStore;
  mailer: Mailer;
  /** Where the studio lives (STUDIO_URL), for the links the commands make. */
  studioUrl: string;
  /** Standard input, read to its end (a password given with --stdin). */
  readStdin(): Promise<string>;
  /** A file's text (agreement publish --file). */
  readFile(path: string): Promise<string>;
  /** Copies the photo files of MEDIA_DIR (or DATA_DIR/media) into the bucket S3_BUCKET names. */
  copyFilesToBucket(): Promise<unknown>;
}

export type FlagValues = Record<string, string | boolean | undefined>;
export type FlagOptions = Record<string, { type: 'string' | 'boolean' }>;

export interface Command {
  /** One line of the usage text, flags included. */
  usage: string;
  options: FlagOptions;
  /** Checks the flags before the store is opened; the returned action does the work. */
  prepare(flags: FlagValues): (ctx: StudioContext) => Promise<unknown>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
const DISPLAY_NAME_MAX = 80;
const KEY_NAME_MAX = 80;

function requireText(flags: FlagValues, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string') throw new UsageError(`missing --${name}`);
  const trimmed = value.trim();
  if (trimmed === '') throw new UsageError(`--${name} must not be empty`);
  return trimmed;
}

function requireChoice<T extends string>(flags: FlagValues, name: string, choices: readonly T[]): T {
  const value = requireText(flags, name);
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function optionalChoice<T extends string>(flags: FlagValues, name: string, choices: readonly T[]): T | undefined {
  return flags[name] === undefined ? undefined : requireChoice(flags, name, choices);
}

function optionalMs(flags: FlagValues, name: string): number | undefined {
  if (flags[name] === undefined) return undefined;
  const value = requireText(flags, name);
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms)) {
    throw new UsageError(
      `--${name} must be a Unix time in milliseconds (a whole number); got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

const unknown = (what: string, id: string) => new UsageError(`no ${what} with id ${JSON.stringify(id)}`);

function found<T>(value: T | undefined, what: string, id: string): T {
  if (value === undefined) throw unknown(what, id);
  return value;
}

async function requireCreator(ctx: StudioContext, creatorId: string): Promise<void> {
  if (!(await ctx.creators.find(creatorId))) throw unknown('creator', creatorId);
}

const GUIDE_STATUSES: readonly GuideStatus[] = ['draft', 'published', 'archived'];
const REVIEW_STATUSES: readonly StoreReviewStatus[] = ['pending', 'approved', 'rejected'];
const SCOPES: readonly KeyScope[] = ['read', 'write'];
const ROLES: readonly Role[] = ['owner', 'editor'];

/** Every command, by its two words. */
export const commands: Record<string, Command> = {
  'creator create': {
    usage: 'creator create --email E --name NAME   # the creator accepts the agreement in the studio',
    options: { email: { type: 'string' }, name: { type: 'string' } },
    prepare(flags) {
      const email = requireText(flags, 'email').toLowerCase();
      if (!EMAIL.test(email)) throw new UsageError(`--email is not an email address: ${JSON.stringify(email)}`);
      const displayName = requireText(flags, 'name');
      if (displayName.length > DISPLAY_NAME_MAX) {
        throw new UsageError(`--name must be at most ${DISPLAY_NAME_MAX} characters`);
      }
      return async (ctx) => {
        if (await ctx.creators.findByEmail(email)) {
          throw new UsageError(`a creator with the email ${JSON.stringify(email)} already exists`);
        }
        // Only the creator accepts the agreement (docs/decisions.md, "Accounts the operator made").
        const creator = await ctx.creators.create({ email, displayName, agreementAccepted: false });
        return { creatorId: creator.creatorId };
      };
    },
  },

  'creator list': {
    usage: 'creator list',
    options: {},
    prepare() {
      return async (ctx) => ({ creators: await ctx.studio.listCreators() });
    },
  },

  'creator deactivate': {
    usage: 'creator deactivate --creator ID',
    options: { creator: { type: 'string' } },
    prepare(flags) {
      const creatorId = requireText(flags, 'creator');
      return async (ctx) => {
        if (!(await ctx.creators.update(creatorId, { active: false }))) throw unknown('creator', creatorId);
        return { creatorId, active: false };
      };
    },
  },

  'creator password': {
    usage:
      'creator password --creator ID [--send | --stdin]   # a link to set a password (printed, or --send: mailed); --stdin sets it',
    options: { creator: { type: 'string' }, send: { type: 'boolean' }, stdin: { type: 'boolean' } },
    prepare(flags) {
      const creatorId = requireText(flags, 'creator');
      if (flags.send === true && flags.stdin === true) throw new UsageError('give at most one of --send and --stdin');
      return async (ctx) => {
        const creator = await ctx.creators.find(creatorId);
        if (!creator) throw unknown('creator', creatorId);
        if (flags.stdin === true) {
          const password = (await ctx.readStdin()).replace(/\r?\n$/, '');
          const problem = passwordProblem(password, creator.email);
          if (problem) throw new UsageError(problem);
          await ctx.accounts.setPassword(creatorId, await hashPassword(password));
          await ctx.sessions.endAll(creatorId);
          return { creatorId, passwordSet: true };
        }
        const token = await ctx.accounts.createResetLink(creatorId, FIRST_PASSWORD_LINK_MS);
        const link = `${ctx.studioUrl}/reset?token=${token}`;
        const expiresAt = Date.now() + FIRST_PASSWORD_LINK_MS;
        if (flags.send !== true) return { creatorId, link, expiresAt };
        if (!ctx.mailer.delivers)
          throw new UsageError('--send needs SMTP_URL; without it, hand the creator the printed link');
        await ctx.mailer.send(firstPasswordMail(creator.email, link));
        return { creatorId, sentTo: creator.email, expiresAt };
      };
    },
  },

  'agreement accept': {
    usage: 'agreement accept --creator ID   # records that the creator accepted the current version outside the studio',
    options: { creator: { type: 'string' } },
    prepare(flags) {
      const creatorId = requireText(flags, 'creator');
      return async (ctx) => {
        await requireCreator(ctx, creatorId);
        const version = await ctx.agreement.acceptCurrent(creatorId);
        return { creatorId, agreementAccepted: true, version };
      };
    },
  },

  'agreement publish': {
    usage:
      'agreement publish --title TITLE --file PATH   # a new version: creators accept it before pricing or publishing',
    options: { title: { type: 'string' }, file: { type: 'string' } },
    prepare(flags) {
      const title = requireText(flags, 'title');
      const file = requireText(flags, 'file');
      return async (ctx) => {
        const body = (await ctx.readFile(file)).trim();
        if (body === '') throw new UsageError(`--file ${JSON.stringify(file)} is empty`);
        const published = await ctx.agreement.publish(title, body);
        return { version: published.version, title: published.title, publishedAt: published.publishedAt };
      };
    },
  },

  'key create': {
    usage:
      'key create --creator ID --scope read|write [--publish] [--expires-at MS] [--role owner|editor] [--name NAME]',
    options: {
      creator: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string' },
      publish: { type: 'boolean' },
      'expires-at': { type: 'string' },
      role: { type: 'string' },
    },
    prepare(flags) {
      const creatorId = requireText(flags, 'creator');
      const scope = requireChoice(flags, 'scope', SCOPES);
      const publish = flags.publish === true;
      if (publish && scope !== 'write') throw new UsageError('--publish needs --scope write');
      const expiresAt = optionalMs(flags, 'expires-at');
      const role = optionalChoice(flags, 'role', ROLES);
      const name = flags.name === undefined ? null : requireText(flags, 'name').slice(0, KEY_NAME_MAX);
      return async (ctx) => {
        await requireCreator(ctx, creatorId);
        return ctx.keys.create({
          creatorId,
          name,
          scope,
          publish,
          role: role ?? 'owner',
          expiresAt: expiresAt ?? null,
        });
      };
    },
  },

  'key revoke': {
    usage: 'key revoke --key KEY_ID',
    options: { key: { type: 'string' } },
    prepare(flags) {
      const keyId = requireText(flags, 'key');
      if (keyId.startsWith('sk_')) {
        throw new UsageError('--key takes the key id (key_…) shown by "key list", not the secret key');
      }
      return async (ctx) => {
        if (!(await ctx.keys.revoke(keyId))) throw new UsageError(`no active key with id ${JSON.stringify(keyId)}`);
        return { keyId, revoked: true };
      };
    },
  },

  'key list': {
    usage: 'key list --creator ID',
    options: { creator: { type: 'string' } },
    prepare(flags) {
      const creatorId = requireText(flags, 'creator');
      return async (ctx) => {
        await requireCreator(ctx, creatorId);
        return { creatorId, keys: await ctx.keys.list(creatorId) };
      };
    },
  },

  'guide status': {
    usage: 'guide status --guide ID --to draft|published|archived',
    options: { guide: { type: 'string' }, to: { type: 'string' } },
    prepare(flags) {
      const guideId = requireText(flags, 'guide');
      const status = requireChoice(flags, 'to', GUIDE_STATUSES);
      if (status === 'published') return async (ctx) => found(await ctx.goLive(guideId), 'guide', guideId);
      return async (ctx) => found(await ctx.studio.setStatus(guideId, status), 'guide', guideId);
    },
  },

  'guide visibility': {
    usage: 'guide visibility --guide ID --on|--off',
    options: { guide: { type: 'string' }, on: { type: 'boolean' }, off: { type: 'boolean' } },
    prepare(flags) {
      const guideId = requireText(flags, 'guide');
      if ((flags.on === true) === (flags.off === true)) throw new UsageError('give exactly one of --on and --off');
      const visible = flags.on === true;
      return async (ctx) => found(await ctx.studio.setVisibility(guideId, visible), 'guide', guideId);
    },
  },

  'guide review': {
    usage: 'guide review --guide ID --status pending|approved|rejected [--note TEXT]',
    options: { guide: { type: 'string' }, status: { type: 'string' }, note: { type: 'string' } },
    prepare(flags) {
      const guideId = requireText(flags, 'guide');
      const status = requireChoice(flags, 'status', REVIEW_STATUSES);
      const note = typeof flags.note === 'string' && flags.note.trim() !== '' ? flags.note.trim() : null;
      return async (ctx) => found(await ctx.studio.setReview(guideId, status, note), 'guide', guideId);
    },
  },

  'media sweep': {
    usage:
      'media sweep [--older-than-minutes N]   # releases and history past retention, then files nothing names (default: 60 minutes old)',
    options: { 'older-than-minutes': { type: 'string' } },
    prepare(flags) {
      const raw = flags['older-than-minutes'];
      const minutes = raw === undefined ? 60 : Number(raw);
      if (typeof raw === 'boolean' || !Number.isFinite(minutes) || minutes < 0) {
        throw new UsageError('--older-than-minutes must be a number of minutes, 0 or more');
      }
      return (ctx) => ctx.sweepOrphanFiles(Date.now() - minutes * 60_000);
    },
  },

  'media copy-to-bucket': {
    usage:
      'media copy-to-bucket   # photo files of MEDIA_DIR (or DATA_DIR/media) into S3_BUCKET; again after switching',
    options: {},
    prepare() {
      return (ctx) => ctx.copyFilesToBucket();
    },
  },

  'guide sale': {
    usage: 'guide sale --guide ID',
    options: { guide: { type: 'string' } },
    prepare(flags) {
      const guideId = requireText(flags, 'guide');
      return async (ctx) => found(await ctx.studio.recordSale(guideId), 'guide', guideId);
    },
  },
};

function firstPasswordMail(to: string, link: string) {
  return {
    to,
    subject: 'Your creator studio account',
    text: `An account in the creator studio was made for ${to}.\n\nOpen this link within 7 days to choose your password; it works once:\n${link}\n`,
  };
}

export function usage(): string {
  const lines = Object.values(commands).map((c) => `  ${c.usage}`);
  return [
    'Usage: npm run admin -- <command> [flags]',
    '',
    'The studio stand-in: acts on the store of DATA_DIR (or DATABASE_URL) and prints JSON.',
    '',
    'Commands:',
    ...lines,
    '  help',
    '',
  ].join('\n');
}
