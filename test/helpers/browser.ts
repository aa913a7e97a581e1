import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { AccountsStore } from '../../src/studio/accounts/accounts.store.ts';
import { hashPassword } from '../../src/studio/accounts/passwords.ts';
import { type Harness, type HarnessOptions, startServer } from './harness.ts';

/** The system's Chromium (Debian's `chromium` package); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots and other artifacts of browser tests (git-ignored). */
export const TEST_RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));

const required = process.env.CI === 'true' || process.env.REQUIRE_CHROMIUM === '1';

/**
 * false when browser tests can run; otherwise the note a suite is skipped with. In CI (CI=true
 * or REQUIRE_CHROMIUM=1) a missing Chromium is not skipped: launching it fails the run.
 */
export function browserSkip(): string | false {
  if (required || existsSync(CHROMIUM_PATH)) return false;
  return `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
}

// Chromium must not reach outside this machine by itself either: no update checks, sync, QUIC
// probes, and no name resolution beyond localhost. Playwright gives each launch a fresh profile.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]',
];

const LOCAL_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A page whose every request is recorded; one to another host is aborted before it leaves. */
export interface BrowserPage {
  page: Page;
  /** Every URL the page asked for, in order (data: and blob: URLs aside). */
  requests: string[];
  /** The requests to a host other than 127.0.0.1, ::1 or localhost (each was aborted). */
  outside: string[];
  /** Uncaught exceptions and console errors (a refused script, a failed request, a CSP report). */
  errors: string[];
  /** Saves a full-page PNG under test-results/ and returns its path. */
  screenshot(name: string): Promise<string>;
}

export interface TestBrowser {
  newPage(): Promise<BrowserPage>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  }
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
  return {
    async newPage() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [];
      const outside: string[] = [];
      const errors: string[] = [];
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
        requests.push(url.href);
        if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
        outside.push(url.href);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
      });
      return {
        page,
        requests,
        outside,
        errors,
        async screenshot(name) {
          mkdirSync(TEST_RESULTS, { recursive: true });
          const path = join(TEST_RESULTS, `${name}.png`);
          await page.screenshot({ path, fullPage: true });
          return path;
        },
      };
    },
    close: () => browser.close(),
  };
}

/** A server and Chromium for a suite; both set once the suite's `before` ran. */
export interface BrowserSuite {
  readonly h: Harness;
  readonly browser: TestBrowser;
}

/** For the enclosing suite: a server and Chromium, started in its `before` and closed in its `after`. */
export function useBrowser(options?: HarnessOptions): BrowserSuite {
  const suite = {} as { h: Harness; browser: TestBrowser };
  before(async () => {
    suite.h = await startServer(options);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.h?.close();
  });
  return suite;
}

const PASSWORD = 'a long studio password';

/** Alice, given a studio password, signs in through the sign-in form and lands on her guides. */
export async function signInChromium(h: Harness, page: Page): Promise<void> {
  const accounts = new AccountsStore({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
  await accounts.setPassword(h.alice.creatorId, await hashPassword(PASSWORD));
  const alice = await h.creators.find(h.alice.creatorId);
  assert.ok(alice);
  await page.goto(`${h.origin}/studio/sign-in`);
  await page.getByLabel('Email').fill(alice.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/studio/guides');
}
