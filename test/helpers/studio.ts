import assert from 'node:assert/strict';
import { Agent, fetch as undiciFetch } from 'undici';

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, or null. */
  location: string | null;
}

/** The value of the form token in a page's first form. */
export function csrfOf(text: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(text);
  assert.ok(match, `no form token in the page:\n${text.slice(0, 600)}`);
  return match[1] as string;
}

/**
 * A browser without JavaScript, for the studio: keeps cookies, posts forms as
 * application/x-www-form-urlencoded with the page's Origin, follows nothing by itself.
 */
export class StudioBrowser {
  readonly origin: string;
  readonly cookies = new Map<string, string>();
  private readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** `from`: the loopback address it connects from (127.0.0.2…), as a person at another address. */
  constructor(origin: string, options: { from?: string } = {}) {
    this.origin = origin;
    const dispatcher = options.from ? new Agent({ localAddress: options.from }) : undefined;
    this.fetch = dispatcher
      ? (url, init) => undiciFetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>
      : fetch;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<PageAnswer> {
    const res = await this.fetch(this.origin + path, {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), ...headers },
    });
    this.keep(res.headers);
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }

  /**
   * Posts a form (a list sends its field once per value); `headers` replaces the browser's own
   * (Origin, Sec-Fetch-Site) when given.
   */
  async post(
    path: string,
    fields: Record<string, string | readonly string[]>,
    headers?: Record<string, string>,
  ): Promise<PageAnswer> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) {
      for (const one of typeof value === 'string' ? [value] : value) body.append(name, one);
    }
    const res = await this.fetch(this.origin + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        ...(headers ?? { origin: this.origin, 'sec-fetch-site': 'same-origin' }),
      },
      body: body.toString(),
    });
    this.keep(res.headers);
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }

  /** Opens the page of a form and sends it with the page's token, as a person clicking would. */
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<PageAnswer> {
    const page = await this.get(pagePath);
    assert.equal(page.status, 200, `${pagePath}: ${page.status} ${page.text.slice(0, 300)}`);
    return this.post(action, { _csrf: csrfOf(page.text), ...fields });
  }

  async signUp(email: string, name: string, password: string): Promise<PageAnswer> {
    return this.submit('/studio/sign-up', '/studio/sign-up', { email, name, password });
  }

  async signIn(email: string, password: string, next?: string): Promise<PageAnswer> {
    return this.submit('/studio/sign-in', '/studio/sign-in', { email, password, ...(next ? { next } : {}) });
  }
}

/**
 * A studio password for a creator the harness made (as `admin creator password --stdin` would),
 * and a browser signed in with it.
 */
export async function signedInAs(
  h: {
    origin: string;
    store: { db: any; dialect: any };
    clock: any;
    creators: { find(id: string): Promise<{ email: string } | undefined> };
  },
  creatorId: string,
  password = 'studio password 123',
): Promise<StudioBrowser> {
  const { AccountsStore } = await import('../../src/studio/accounts/accounts.store.ts');
  const { hashPassword } = await import('../../src/studio/accounts/passwords.ts');
  const accounts = new AccountsStore({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
  await accounts.setPassword(creatorId, await hashPassword(password));
  const creator = await h.creators.find(creatorId);
  assert.ok(creator);
  const browser = new StudioBrowser(h.origin);
  const answer = await browser.signIn(creator.email, password);
  assert.equal(answer.status, 303, answer.text.slice(0, 300));
  return browser;
}
