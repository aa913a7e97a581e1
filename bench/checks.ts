/** Checks of one answer per kind of target: each returns the problems found, empty when all is well. */
import { isDeepStrictEqual } from 'node:util';
import { type Answer, type BenchContext, type FixtureName, fixtureOf } from './context.ts';

type Check = (answer: Answer, ctx: BenchContext) => string[];

/** 200 with exactly the reference bytes and content type of the fixture. */
export function sameBytes(fixture: FixtureName): Check {
  return (answer, ctx) => {
    const { reference } = fixtureOf(ctx, fixture);
    const problems: string[] = [];
    if (answer.status !== 200) problems.push(`status ${answer.status}, expected 200`);
    if (answer.contentType !== reference.contentType) {
      problems.push(`content-type "${answer.contentType}", expected "${reference.contentType}"`);
    }
    if (!answer.body.equals(reference.body)) {
      problems.push(
        `body differs (${answer.body.length} bytes, expected ${reference.body.length}): ${preview(answer.body)}`,
      );
    }
    return problems;
  };
}

/** A JSON-RPC success whose tool result carries the fixture's record once: as its text, with no structured copy. */
export function toolResult(fixture: FixtureName): Check {
  return (answer, ctx) => {
    const expected = fixtureOf(ctx, fixture).reference.json;
    if (answer.status !== 200) return [`status ${answer.status}, expected 200: ${preview(answer.body)}`];
    let message: { id?: unknown; result?: Record<string, unknown>; error?: unknown };
    try {
      message = parseJsonRpc(answer);
    } catch (err) {
      return [`unreadable answer (${(err as Error).message}): ${preview(answer.body)}`];
    }
    if (message.error !== undefined) return [`JSON-RPC error: ${JSON.stringify(message.error)}`];
    const result = message.result;
    if (message.id !== 1 || result === undefined) return [`not a result for id 1: ${preview(answer.body)}`];
    if (result.isError === true) return [`tool error: ${JSON.stringify(result.content)}`];
    const problems: string[] = [];
    if (result.structuredContent !== undefined) problems.push('a structured copy beside the text');
    const text = (result.content as Array<{ type?: string; text?: string }> | undefined)?.[0]?.text;
    if (text === undefined || !isDeepStrictEqual(JSON.parse(text), expected)) {
      problems.push('text content differs from the REST record');
    }
    return problems;
  };
}

/**
 * 200 for the batch sent again: every spot already as sent, so unchanged (none created or updated,
 * nothing written, no warnings), and answered compact: each spotKey with its spotId, in the order sent.
 */
export function upsertResult(fixture: FixtureName): Check {
  return (answer, ctx) => {
    const { productId, sent = [] } = fixtureOf(ctx, fixture);
    if (answer.status !== 200) return [`status ${answer.status}, expected 200: ${preview(answer.body)}`];
    let json: {
      productId?: unknown;
      created?: unknown[];
      updated?: unknown[];
      unchanged?: unknown[];
      spots?: Array<Record<string, unknown>>;
      warnings?: unknown;
    };
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch (err) {
      return [`unreadable answer (${(err as Error).message}): ${preview(answer.body)}`];
    }
    const problems: string[] = [];
    if (json.productId !== productId)
      problems.push(`productId ${JSON.stringify(json.productId)}, expected ${productId}`);
    const keys = sent.map((item) => item.spotKey);
    if (!isDeepStrictEqual(json.unchanged, keys)) problems.push(`unchanged ${JSON.stringify(json.unchanged)}`);
    if (json.created?.length !== 0) problems.push(`created ${json.created?.length}, expected 0`);
    if (json.updated?.length !== 0) problems.push(`updated ${json.updated?.length}, expected 0`);
    if (json.warnings !== undefined) problems.push(`warnings: ${JSON.stringify(json.warnings)}`);
    const spots = json.spots ?? [];
    if (
      !isDeepStrictEqual(
        spots.map((s) => s.spotKey),
        keys,
      )
    )
      problems.push('the answer does not name each spotKey sent, in order');
    if (spots.some((s) => typeof s.spotId !== 'string')) problems.push('a spot without its spotId');
    return problems;
  };
}

/** JSON, or the one `data:` message of an SSE answer. */
/** set_itinerary_days: 200, every day sent counted in the compact answer, no warnings. */
export function daysResult(fixture: FixtureName): Check {
  return (answer, ctx) => {
    const { sent = [] } = fixtureOf(ctx, fixture);
    if (answer.status !== 200) return [`status ${answer.status}, expected 200: ${preview(answer.body)}`];
    let json: { dayCount?: unknown; updatedAt?: unknown; warnings?: unknown };
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch (err) {
      return [`unreadable answer (${(err as Error).message}): ${preview(answer.body)}`];
    }
    const problems: string[] = [];
    if (json.warnings !== undefined) problems.push(`warnings: ${JSON.stringify(json.warnings)}`);
    if (json.dayCount !== sent.length)
      problems.push(`dayCount ${JSON.stringify(json.dayCount)}, expected ${sent.length}`);
    if (typeof json.updatedAt !== 'number') problems.push('no updatedAt for the next edit');
    return problems;
  };
}

function parseJsonRpc(answer: Answer): { id?: unknown; result?: Record<string, unknown>; error?: unknown } {
  const text = answer.body.toString('utf8');
  if (!answer.contentType.startsWith('text/event-stream')) return JSON.parse(text);
  const data = text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((d) => d !== '');
  if (data.length !== 1) throw new Error(`${data.length} SSE data messages, expected 1`);
  return JSON.parse(data[0]!);
}

function preview(body: Buffer): string {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
