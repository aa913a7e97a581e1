import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { studioPrincipal } from '../../core/auth.ts';
import { ApiError } from '../../core/errors.ts';
import { invoke } from '../../core/invoke.ts';
import { exportGuide } from '../../resources/files/export.operations.ts';
import { exportFormats } from '../../resources/files/export-formats.ts';
import { importSpots } from '../../resources/files/import.operations.ts';
import { uploadImportFile } from '../../resources/files/import-upload.operations.ts';
import { importFormats } from '../../resources/files/imported-file.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type SignedIn, type StudioDeps, signedInLayout, studioStores } from '../context.ts';
import { csrfField, message, sendPage } from '../web/page.ts';
import { field, seeOther } from '../web/security.ts';

/** What a file's import would do or did, as import_spots answers it (its first page of items). */
interface ImportAnswer {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  total: number;
  items: { where: string; action: string; name?: string; reason?: string }[];
}

/** The format a file's name says; KMZ is read as KML. */
function formatOf(filename: string | undefined, chosen: string): string {
  if ((importFormats as readonly string[]).includes(chosen)) return chosen;
  const ext = filename?.toLowerCase().split('.').pop() ?? '';
  if (ext === 'kmz') return 'kml';
  if (ext === 'json') return 'geojson';
  return ext;
}

/**
 * A guide's Files page: "Import a file" (uploaded, dry-run shown, then imported on a confirm) and a
 * Download link per export format, each through the operations an assistant calls, as the studio.
 */
export function registerFileRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;
  const call = (who: SignedIn, request: FastifyRequest) => ({
    principal: studioPrincipal(who.creator.creatorId, who.session),
    requestId: request.id,
    log: request.log,
  });

  async function ownedName(who: SignedIn, productId: string): Promise<string | undefined> {
    const { stores } = studioStores(runtime);
    if (!(await stores.guides.isOwned(who.creator.creatorId, productId))) return undefined;
    return (await stores.guides.recordRow(productId)).name;
  }

  function send(reply: FastifyReply, who: SignedIn, body: Markup, status = 200) {
    return sendPage(reply, { title: 'Files', signedIn: signedInLayout(who, 'guides'), body }, status);
  }

  const noSuch = (reply: FastifyReply, who: SignedIn) =>
    send(reply, who, html`<h1>Not found</h1>${message('error', 'No such guide of yours.')}`, 404);

  function filesPage(productId: string, name: string, csrf: string, note: { error?: string; notice?: string } = {}) {
    const id = encodeURIComponent(productId);
    return html`<h1>Files of ${name}</h1>
${message('notice', note.notice)}${message('error', note.error)}
<section class="card"><h2>Import a file</h2>
<p>A Google My Maps KML or KMZ, a GPX, a GeoJSON or a CSV: you see what it would change before anything is written.</p>
<form method="post" action="/studio/guides/${id}/files/import" enctype="multipart/form-data">${csrfField(csrf)}
<label>Format <select name="format"><option value="">from the file name</option>${importFormats.map((f) => html`<option value="${f}">${f}</option>`)}</select></label>
<label>File <input type="file" name="file" required></label>
<button type="submit">Check the file</button></form></section>
<section class="card"><h2>Download</h2><ul>${exportFormats.map(
      (f) => html`<li><a href="/studio/guides/${id}/files/download/${f}" data-format="${f}">Download ${f}</a></li>`,
    )}</ul></section>`;
  }

  function dryRunPage(productId: string, csrf: string, upload: { uploadId: string; format: string }, a: ImportAnswer) {
    const id = encodeURIComponent(productId);
    return html`<h1>What the file would change</h1>
<p data-counts>${a.created} created, ${a.updated} updated, ${a.unchanged} unchanged, ${a.skipped} skipped</p>
<ul class="findings">${a.items
      .filter((i) => i.action === 'skip')
      .map((i) => html`<li data-skip>${i.where}${i.name ? html` (${i.name})` : html``}: ${i.reason ?? ''}</li>`)}</ul>
<form method="post" action="/studio/guides/${id}/files/import/confirm">${csrfField(csrf)}<input type="hidden" name="uploadId" value="${upload.uploadId}"><input type="hidden" name="format" value="${upload.format}"><button type="submit">Import</button></form>
<p><a href="/studio/guides/${id}/files">Back, without importing</a></p>`;
  }

  app.get<{ Params: { productId: string } }>('/guides/:productId/files', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const name = await ownedName(who, request.params.productId);
    if (name === undefined) return noSuch(reply, who);
    const done = (request.query as Record<string, unknown>).imported;
    const notice = typeof done === 'string' ? `Imported: ${done}.` : undefined;
    return send(reply, who, filesPage(request.params.productId, name, who.csrf, { notice }));
  });

  app.post<{ Params: { productId: string } }>('/guides/:productId/files/import', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const { productId } = request.params;
    const name = await ownedName(who, productId);
    if (name === undefined) return noSuch(reply, who);
    const body = request.body as Record<string, unknown>;
    const file = body.file as { bytes: Buffer; filename?: string } | undefined;
    const format = formatOf(file?.filename, field(body, 'format'));
    try {
      if (!file) throw new ApiError('invalid_request', 'file: choose a file to import.');
      const upload = { field: 'file', filename: file.filename, contentType: undefined, bytes: file.bytes };
      const up = await invoke(runtime, uploadImportFile, { productId }, { ...call(who, request), uploads: [upload] });
      const uploadId = String(up.result.uploadId);
      const dry = await invoke(
        runtime,
        importSpots,
        { productId, format, uploadId, dryRun: true, limit: 500 },
        call(who, request),
      );
      return send(
        reply,
        who,
        dryRunPage(productId, who.csrf, { uploadId, format }, dry.result as unknown as ImportAnswer),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      return send(reply, who, filesPage(productId, name, who.csrf, { error: err.message }), 400);
    }
  });

  app.post<{ Params: { productId: string } }>('/guides/:productId/files/import/confirm', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const { productId } = request.params;
    const name = await ownedName(who, productId);
    if (name === undefined) return noSuch(reply, who);
    const input = { productId, format: field(request.body, 'format'), uploadId: field(request.body, 'uploadId') };
    try {
      const { result } = await invoke(runtime, importSpots, input, call(who, request));
      const a = result as unknown as ImportAnswer;
      const said = `${a.created} created, ${a.updated} updated, ${a.unchanged} unchanged, ${a.skipped} skipped`;
      return seeOther(
        reply,
        `/studio/guides/${encodeURIComponent(productId)}/files?imported=${encodeURIComponent(said)}`,
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      return send(reply, who, filesPage(productId, name, who.csrf, { error: err.message }), 400);
    }
  });

  app.get<{ Params: { productId: string; format: string } }>(
    '/guides/:productId/files/download/:format',
    async (request, reply) => {
      const who = await requireSignedIn(deps, request, reply);
      if (!who) return reply;
      const { productId, format } = request.params;
      if ((await ownedName(who, productId)) === undefined) return noSuch(reply, who);
      const { result } = await invoke(runtime, exportGuide, { productId, format }, call(who, request));
      return seeOther(reply, String(result.url));
    },
  );
}
