import type { fetch } from 'undici';
import { GuardedAgent, type GuardOptions, loadUndici } from '../../resources/links/index.ts';

/** A client metadata document is small and near: a stranger's slow or huge answer is cut short. */
const TIMEOUT_MS = 2500;

/**
 * How the authorization server fetches a client's metadata document (a URL a stranger chose):
 * through the link checker's address guard, which refuses private, loopback and link-local
 * addresses after DNS resolution and connects only to the addresses it checked. No redirect is
 * followed; oidc-provider bounds the body (5 KB) and the time. `guard` comes from the app's deps
 * (tests hand in their resolver), never from configuration.
 */
export function guardedMetadataFetch(guard: Partial<GuardOptions> = {}): typeof fetch {
  const agent = new GuardedAgent({
    connectTimeoutMs: TIMEOUT_MS,
    headersTimeoutMs: TIMEOUT_MS,
    bodyTimeoutMs: TIMEOUT_MS,
    connectionsPerOrigin: 2,
    ...guard,
  });
  return async (input, init) => {
    const [undici, dispatcher] = await Promise.all([loadUndici(), agent.dispatcher()]);
    return undici.fetch(input, { ...init, dispatcher, redirect: 'manual' });
  };
}
