import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import { headerText } from '../core/headers.ts';
import { jsonOf, keptJsonLiteralBytesOf } from '../core/json.ts';
import {
  EVENT_STREAM_HEADERS,
  JSON_ANSWER_HEADERS,
  legacyHeadersServable,
  MODERN_REVISION,
  type NodeHeaders,
} from './mcp-direct.ts';

/**
 * A tools/call in the exact form the official clients send it (`@modelcontextprotocol/client` 2.x
 * on 2026-07-28 and on the stateless 2025 line, `@modelcontextprotocol/sdk` 1.x), recognized by
 * looking at it, without the SDK. The SDK spends several zod parses on every message (three of
 * them failing on purpose, to tell a request from a response) and builds a server and a transport
 * around each one; for this form, which its checks accept whatever the tool's arguments hold, its
 * answer is fixed by the tool's result. Anything else, however slightly different (another member,
 * a `_meta` key beyond the envelope, declared client capabilities, an id that is not a string or
 * safe integer), is not recognized and goes to the SDK's parts as before
 * (docs/decisions/transports.md, "Tool calls in the clients' own form").
 */
export interface ToolCall {
  era: 'modern' | 'legacy';
  id: string | number;
  name: string;
  arguments: Record<string, unknown> | undefined;
}

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether every own key of `value` is one of `allowed` (JSON.parse makes only own, enumerable keys). */
function keysWithin(value: Plain, allowed: readonly string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

const MESSAGE_KEYS = ['jsonrpc', 'id', 'method', 'params'];
const LEGACY_PARAMS_KEYS = ['name', 'arguments'];
const MODERN_PARAMS_KEYS = ['name', 'arguments', '_meta'];
const ENVELOPE_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY];
const CLIENT_INFO_KEYS = ['name', 'version'];

/** The call, when the request is one in the clients' form; undefined sends it to the SDK's parts. */
export function recognizeToolCall(body: unknown, headers: NodeHeaders): ToolCall | undefined {
  if (!isPlain(body) || !keysWithin(body, MESSAGE_KEYS)) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || !isPlain(params)) return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string') return undefined;
  // A top-level `__proto__` would not survive the SDK's copy of the arguments (a zod record).
  if (args !== undefined && (!isPlain(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  const callId = id as string | number;

  if (headers['mcp-protocol-version'] === MODERN_REVISION) {
    if (!keysWithin(params, MODERN_PARAMS_KEYS) || !isPlain(meta) || !keysWithin(meta, ENVELOPE_KEYS)) return undefined;
    if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
    if (!isPlain(capabilities) || !keysWithin(capabilities, [])) return undefined;
    const clientInfo = meta[CLIENT_INFO_META_KEY];
    if (clientInfo !== undefined) {
      if (!isPlain(clientInfo) || !keysWithin(clientInfo, CLIENT_INFO_KEYS)) return undefined;
      if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
    }
    if (headerText(headers['mcp-method']) !== method || headerText(headers['mcp-name']) !== name) return undefined;
    return { era: 'modern', id: callId, name, arguments: args };
  }

  if (!keysWithin(params, LEGACY_PARAMS_KEYS) || !legacyHeadersServable(headers)) return undefined;
  return { era: 'legacy', id: callId, name, arguments: args };
}

/**
 * A text item whose text is a kept view's JSON, carrying that text escaped once as a JSON string.
 * The escaped form is a private field: JSON, the SDK's checks and copies see a plain `{ type, text }`
 * (no side table per call either: a WeakMap entry per answer was an ephemeron for the collector).
 */
class KeptTextItem {
  readonly type = 'text' as const;
  readonly text: string;
  readonly #escaped: { text: string; literal: Buffer };

  constructor(text: string, literal: Buffer) {
    this.text = text;
    this.#escaped = { text, literal };
  }

  /** The escaped text of an item made here whose text is still the one escaped; else undefined. */
  static literalOf(item: object): Buffer | undefined {
    if (!(#escaped in item)) return undefined;
    const escaped = item.#escaped;
    return item.text === escaped.text ? escaped.literal : undefined;
  }
}

/**
 * A tool's answer of one text, the JSON of `value`. For a kept (frozen) view the text's escaped
 * form, as the JSON-RPC message carries it, is made once (core/json.ts) and toolCallAnswer puts it
 * between the message's other bytes: a page of 95 KB is not escaped again on every call.
 */
export function jsonToolResult(value: object): CallToolResult {
  const text = jsonOf(value);
  const literal = keptJsonLiteralBytesOf(value);
  return { content: [literal === undefined ? { type: 'text', text } : new KeptTextItem(text, literal)] };
}

/** What a message's bytes begin with, up to its one text, on each line. */
const MODERN_BEFORE = Buffer.from('{"result":{"content":[{"type":"text","text":');
const LEGACY_BEFORE = Buffer.from('event: message\ndata: {"result":{"content":[{"type":"text","text":');

/** The 2026-07-28 `_meta` of the last server info answered with, and its JSON (one server answers with one). */
let stampedFor: { serverInfo: object; meta: object; json: string } | undefined;

function stampOf(serverInfo: { name: string; version: string }): { meta: object; json: string } {
  if (stampedFor?.serverInfo !== serverInfo) {
    const meta = { [SERVER_INFO_META_KEY]: serverInfo };
    stampedFor = { serverInfo, meta, json: JSON.stringify(meta) };
  }
  return stampedFor;
}

/** The headers and bytes the SDK answers a call with, for a result of the tool's handler. */
export function toolCallAnswer(
  call: ToolCall,
  result: CallToolResult,
  serverInfo: { name: string; version: string },
): { headers: Record<string, string>; body: Buffer } {
  const id = JSON.stringify(call.id);
  if (call.era === 'modern') {
    // The 2026-07-28 codec marks the result complete and names the server in its `_meta`.
    const stamp = stampOf(serverInfo);
    const around = `}],"resultType":"complete","_meta":${stamp.json}},"jsonrpc":"2.0","id":${id}}`;
    const spliced = aroundEscapedText(result, MODERN_BEFORE, around);
    if (spliced) return { headers: JSON_ANSWER_HEADERS, body: spliced };
    const stamped = { ...result, resultType: 'complete', _meta: stamp.meta };
    const message = { result: stamped, jsonrpc: '2.0', id: call.id };
    return { headers: JSON_ANSWER_HEADERS, body: Buffer.from(JSON.stringify(message)) };
  }
  const spliced = aroundEscapedText(result, LEGACY_BEFORE, `}]},"jsonrpc":"2.0","id":${id}}\n\n`);
  if (spliced) return { headers: EVENT_STREAM_HEADERS, body: spliced };
  const message = { result, jsonrpc: '2.0', id: call.id };
  const frame = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  return { headers: EVENT_STREAM_HEADERS, body: Buffer.from(frame) };
}

/** Whether `value`'s enumerable keys are exactly `expected`, in its order. */
function keysAre(value: object, expected: readonly string[]): boolean {
  let at = 0;
  for (const key in value) if (key !== expected[at++]) return false;
  return at === expected.length;
}

const RESULT_KEYS = ['content'];
const TEXT_ITEM_KEYS = ['type', 'text'];

/**
 * The message's bytes as JSON.stringify writes them, its one text taken escaped as it was kept:
 * only for a result that is exactly `{ content: [{ type: 'text', text }] }` made by jsonToolResult
 * with that text still in place; anything else answers undefined and is serialized whole.
 */
function aroundEscapedText(result: CallToolResult, before: Buffer, after: string): Buffer | undefined {
  if (result.content.length !== 1 || !keysAre(result, RESULT_KEYS)) return undefined;
  const item = result.content[0] as object;
  const literal = KeptTextItem.literalOf(item);
  if (literal === undefined || !keysAre(item, TEXT_ITEM_KEYS)) return undefined;
  // One buffer, written in three pieces (Buffer.concat would first encode `after` into a buffer of its own).
  const message = Buffer.allocUnsafe(before.length + literal.length + Buffer.byteLength(after));
  before.copy(message, 0);
  literal.copy(message, before.length);
  message.write(after, before.length + literal.length);
  return message;
}
