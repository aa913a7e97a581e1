import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.ts';
import { MAX_IMPORT_FILE_BYTES } from '../resources/files/import-upload.operations.ts';
import { html } from '../resources/sales-page/index.ts';
import { setRefusalHeaders } from '../transports/rate-limit-headers.ts';
import type { StudioDeps } from './context.ts';
import { registerAccountRoutes } from './routes/account-routes.ts';
import { registerAgreementRoutes } from './routes/agreement-routes.ts';
import { registerAssistantRoutes } from './routes/assistant-routes.ts';
import { registerEmailRoutes } from './routes/email-routes.ts';
import { registerFileRoutes } from './routes/file-routes.ts';
import { registerGuideRoutes } from './routes/guide-routes.ts';
import { registerHistoryRoutes } from './routes/history-routes.ts';
import { registerKeyRoutes } from './routes/key-routes.ts';
import { registerPreviewRoutes } from './routes/preview-routes.ts';
import { formPartsOnBody } from './web/form-parts.ts';
import { sendPage } from './web/page.ts';
import { cookieNames, field, fromOwnPages } from './web/security.ts';

export type { StudioDeps } from './context.ts';
export { studioMigrations } from './migrations.ts';

/** Forms are small: a name, an email, a password. */
const FORM_BODY_LIMIT = 16 * 1024;

function problemPage(reply: FastifyReply, status: number, title: string, text: string) {
  return sendPage(reply, { title, body: html`<h1>${title}</h1><p class="error" role="alert">${text}</p>` }, status);
}

/** Every refusal in the studio is a page a person can read, never the API's JSON. */
function studioError(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ApiError && err.code === 'rate_limited') {
    setRefusalHeaders(reply, err);
    const seconds = Math.ceil((err.retryAfterMs ?? 1000) / 1000);
    return problemPage(reply, 429, 'Too many attempts', `Wait ${seconds} seconds, then try again.`);
  }
  const e = err as { code?: string; statusCode?: number };
  if (e.code === 'FST_CSRF_INVALID_TOKEN' || e.code === 'FST_CSRF_MISSING_SECRET' || e.code === 'STUDIO_CROSS_SITE') {
    return problemPage(reply, 403, 'This form has expired', 'Go back, reload the page and send the form again.');
  }
  if (e.statusCode === 413) return problemPage(reply, 413, 'Too much text', 'The form sent more than this page takes.');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return problemPage(reply, e.statusCode, 'Not understood', 'The request could not be read. Go back and try again.');
  }
  request.log.error({ err }, 'studio page failed');
  return problemPage(reply, 500, 'Something went wrong', `Try again in a moment. Reference: ${request.id}`);
}

/**
 * The creator's studio under /studio: server-rendered pages, no script, a session cookie, and a
 * CSRF token in every form checked with the request's Origin on every POST.
 */
export function registerStudio(app: FastifyInstance, deps: StudioDeps): void {
  const names = cookieNames(deps.secureCookies);
  app.register(
    async (scope) => {
      await scope.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
      // A map file for "Import a file": its fields on the body as text (the form token among them), the file as bytes.
      await scope.register(multipart, { limits: { fileSize: MAX_IMPORT_FILE_BYTES, files: 1 } });
      scope.addHook('preValidation', formPartsOnBody);
      await scope.register(cookie);
      await scope.register(csrf, {
        cookieKey: names.csrf,
        cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: deps.secureCookies },
        getToken: (request) => field(request.body, '_csrf'),
      });
      scope.setErrorHandler(studioError);
      scope.addHook('preHandler', (request, reply, done) => {
        if (request.method !== 'POST') return done();
        if (!fromOwnPages(request, new URL(deps.runtime.urls.studioUrl).origin)) {
          return done(Object.assign(new Error('cross-site form'), { code: 'STUDIO_CROSS_SITE' }));
        }
        scope.csrfProtection(request, reply, done);
      });
      registerAccountRoutes(scope, deps);
      registerEmailRoutes(scope, deps);
      registerKeyRoutes(scope, deps);
      registerAgreementRoutes(scope, deps);
      registerGuideRoutes(scope, deps);
      registerHistoryRoutes(scope, deps);
      registerFileRoutes(scope, deps);
      registerPreviewRoutes(scope, deps);
      registerAssistantRoutes(scope, deps);
    },
    { prefix: '/studio' },
  );
}
