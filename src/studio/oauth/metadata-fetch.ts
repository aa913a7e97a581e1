import { fetch } from 'undici';
import { createGuardedAgent, type GuardOptions } from '../../resources/links/index.ts';

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
  const agent = createGuardedAgent({
    connectTimeoutMs: TIMEOUT_MS,
    headersTimeoutMs: TIMEOUT_MS,
    bodyTimeoutMs: TIMEOUT_MS,
    connectionsPerOrigin: 2,
    ...guard,
  });
  return (input, init) => fetch(input, { ...init, dispatcher: agent, redirect: 'manual' });
}
