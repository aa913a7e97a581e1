import type { FastifyReply, FastifyRequest } from 'fastify';
import { studioPrincipal } from '../../core/auth.ts';
import type { Call } from '../../core/invoke.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { type SignedIn, type StudioDeps, signedInLayout, studioStores } from '../context.ts';
import { message, sendPage } from '../web/page.ts';

/** What every page of a guide's history (changes, releases) answers with, said once for both. */
export interface HistoryReplies {
  /** An operation's call as the signed-in creator acting in the studio, so the history records the studio. */
  call(who: SignedIn, request: FastifyRequest): Call;
  /** The guide's name when it is the signed-in creator's; another's is as unknown as a missing one. */
  ownedName(who: SignedIn, productId: string): Promise<string | undefined>;
  send(reply: FastifyReply, who: SignedIn, title: string, body: Markup, status?: number): FastifyReply;
  /** The 404 page: another creator's guide, change or release reads as a missing one. */
  noSuch(reply: FastifyReply, who: SignedIn, text: string): FastifyReply;
}

export function historyReplies(deps: StudioDeps): HistoryReplies {
  const { runtime } = deps;
  const send: HistoryReplies['send'] = (reply, who, title, body, status = 200) =>
    sendPage(reply, { title, signedIn: signedInLayout(who, 'guides'), body }, status);
  return {
    call: (who, request) => ({
      principal: studioPrincipal(who.creator.creatorId, who.session),
      requestId: request.id,
      log: request.log,
    }),
    async ownedName(who, productId) {
      const { stores } = studioStores(runtime);
      if (!(await stores.guides.isOwned(who.creator.creatorId, productId))) return undefined;
      return (await stores.guides.recordRow(productId)).name;
    },
    send,
    noSuch: (reply, who, text) => send(reply, who, 'Not found', html`<h1>Not found</h1>${message('error', text)}`, 404),
  };
}
