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
 * 200 for the batch sent again: all of it updated (none created, no warnings), and every spot in
 * the answer, in the order sent, carrying each field as sent.
 */
export function upsertResult(fixture: FixtureName): Check {
  return (answer, ctx) => {
    const { productId, sent = [] } = fixtureOf(ctx, fixture);
    if (answer.status !== 200) return [`status ${answer.status}, expected 200: ${preview(answer.body)}`];
    let json: { productId?: unknown; created?: unknown[]; updated?: unknown[]; spots?: unknown[]; warnings?: unknown };
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch (err) {
      return [`unreadable answer (${(err as Error).message}): ${preview(answer.body)}`];
    }
    const problems: string[] = [];
    if (json.productId !== productId)
      problems.push(`productId ${JSON.stringify(json.productId)}, expected ${productId}`);
    if (json.updated?.length !== sent.length) problems.push(`updated ${json.updated?.length}, expected ${sent.length}`);
    if (json.created?.length !== 0) problems.push(`created ${json.created?.length}, expected 0`);
    if (json.warnings !== undefined) problems.push(`warnings: ${JSON.stringify(json.warnings)}`);
    const spots = (json.spots ?? []) as Array<Record<string, unknown>>;
    if (spots.length !== sent.length) problems.push(`${spots.length} spots in the answer, expected ${sent.length}`);
    sent.forEach((item, i) => {
      const stored = spots[i];
      if (stored === undefined) return;
      const differ = Object.keys(item).filter((field) => !isDeepStrictEqual(stored[field], item[field]));
      if (differ.length > 0) problems.push(`spots[${i}] (${item.spotKey}) differs in ${differ.join(', ')}`);
    });
    return problems;
  };
}

/** JSON, or the one `data:` message of an SSE answer. */
/** set_itinerary_days: 200, the days stored as sent (they are normalized already), no warnings. */
export function daysResult(fixture: FixtureName): Check {
  return (answer, ctx) => {
    const { sent = [] } = fixtureOf(ctx, fixture);
    if (answer.status !== 200) return [`status ${answer.status}, expected 200: ${preview(answer.body)}`];
    let json: { days?: unknown; warnings?: unknown };
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch (err) {
      return [`unreadable answer (${(err as Error).message}): ${preview(answer.body)}`];
    }
    const problems: string[] = [];
    if (json.warnings !== undefined) problems.push(`warnings: ${JSON.stringify(json.warnings)}`);
    if (!isDeepStrictEqual(json.days, sent)) problems.push('the stored days differ from those sent');
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
