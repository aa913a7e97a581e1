import type { Principal } from '../core/auth.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Registry } from '../core/registry.ts';
import { isFixedListNote } from '../shared/notes.ts';
import { type JsonObject, toolInputSchema } from './json-schema.ts';
import { ownErrorsOf } from './operation-errors.ts';

/** Kept here too: tests of a field type read its JSON Schema the way the tool list makes it. */
export { jsonSchemaOf } from './json-schema.ts';

/**
 * The hints MCP defines, each only where it differs from the protocol's default (readOnlyHint
 * false, destructiveHint true, idempotentHint false, openWorldHint true); a read's destructive and
 * idempotent hints mean nothing and are left out.
 */
export interface ToolAnnotations {
  readOnlyHint?: true;
  destructiveHint?: boolean;
  idempotentHint?: true;
  openWorldHint?: false;
}

export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  annotations: ToolAnnotations;
}

/**
 * The MCP face of an operation: same name, same input, annotations following its scope. What a
 * client downloads on every connection and a model holds before it works: no output schema (hosts
 * never show one to a model; clients only check structured answers against it), no `_meta`, no
 * hint at its default value. docs/decisions/schemas-and-openapi.md ("The fixed cost before work")
 * has the figures.
 */
export function describeTool(op: AnyOperation): ToolDescription {
  const stability = op.stability === 'beta' ? ' (beta)' : '';
  // The codes every call can answer (invalid_argument, rate_limited…, and not_found wherever an id
  // is sent) would repeat on every tool: the line names what this one adds; the OpenAPI document
  // and the reference list them all. No scope either: a key's list holds only what it may call.
  const own = toolErrorsOf(op);
  const errors = own.length > 0 ? ` Errors: ${own.join(', ')}.` : '';
  return {
    name: op.name,
    title: op.title,
    description: `${op.description}${stability}${errors}`,
    inputSchema: toolInputSchema(op.input),
    annotations: annotationsOf(op),
  };
}

/**
 * A note shorter than this costs about what the pointer that would replace it costs: every tool keeps
 * it. Notes of 17 to 19 characters ("From list_chapters") are shared since the compact write answers
 * (issue 28) added a field to ten tools, and of 16 ("From list_guides") since the history's two
 * tools (issue 29): each paid for its addition (docs/decisions/schemas-and-openapi.md).
 */
const SHORTEST_SHARED_NOTE = 16;

/**
 * A tools/list: every tool with its full schema (each field's type, fixed list, limits and required
 * marker), and each field's note (its description) said once, in the first tool that has that
 * field with that note. A later tool leaves the note out and names, at the end of its description,
 * the tools that say it ("Field notes: create_spot."). Notes of a fixed list that depends on
 * another field, and short notes, stay in every tool.
 */
export function describeTools(ops: readonly AnyOperation[]): ToolDescription[] {
  const saidIn = new Map<string, string>();
  return ops.map((op) => {
    const tool = describeTool(op);
    const elsewhere = new Set<string>();
    const inputSchema = withoutNotesSaid(tool.inputSchema, '', (field, note) => {
      if (note.length < SHORTEST_SHARED_NOTE || isFixedListNote(note)) return false;
      const key = `${field}\n${note}`;
      const first = saidIn.get(key);
      if (first === undefined) saidIn.set(key, tool.name);
      else if (first !== tool.name) elsewhere.add(first);
      return first !== undefined && first !== tool.name;
    }) as ToolDescription['inputSchema'];
    const pointer = elsewhere.size > 0 ? ` Field notes: ${[...elsewhere].join(', ')}.` : '';
    return { ...tool, description: tool.description + pointer, inputSchema };
  });
}

/**
 * The schema without the notes `said` answers true for. A note belongs to the field (or shared
 * type) whose schema holds it, at any depth of that schema's unions and lists.
 */
function withoutNotesSaid(node: unknown, field: string, said: (field: string, note: string) => boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutNotesSaid(item, field, said));
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') {
      if (!said(field, value)) out[key] = value;
    } else if (key === 'properties' || key === '$defs') {
      // Field and type names are keys here, never keywords: a field named "description" is a field.
      out[key] = Object.fromEntries(
        Object.entries(value as JsonObject).map(([name, sub]) => [name, withoutNotesSaid(sub, name, said)]),
      );
    } else {
      out[key] = withoutNotesSaid(value, field, said);
    }
  }
  return out;
}

/** The error codes a tool's description names. */
export function toolErrorsOf(op: AnyOperation): string[] {
  return ownErrorsOf(op).filter((code) => code !== 'not_found');
}

function annotationsOf(op: AnyOperation): ToolAnnotations {
  const hints: ToolAnnotations = op.readOnly
    ? { readOnlyHint: true }
    : { destructiveHint: op.destructive, ...(op.idempotent && { idempotentHint: true as const }) };
  if (!op.openWorld) hints.openWorldHint = false;
  return hints;
}

/** Whether a key may call an operation at all: its tools/list holds only those. */
export function keyMayCall(principal: Pick<Principal, 'scope' | 'publish'>, op: AnyOperation): boolean {
  if (op.scope === 'read') return true;
  if (principal.scope !== 'write') return false;
  return op.scope !== 'publish' || principal.publish;
}

/**
 * A key's tools/list holds the tools it may call (a read key's, only the reads): what a model holds
 * before it works is what it can use. Calling a tool left out still answers api_scope_required, as
 * REST does. The three lists are built once per process, each by the first tools/list that needs
 * it: every tool's JSON Schema, three times over, was most of what building the app cost.
 */
export function toolListsByKey(registry: Registry): (principal: Principal) => { tools: ToolDescription[] } {
  const lists = new Map<string, { tools: ToolDescription[] }>();
  const listFor = (key: Pick<Principal, 'scope' | 'publish'>) => {
    const name = `${key.scope} ${key.publish}`;
    let list = lists.get(name);
    if (!list) {
      list = { tools: describeTools(registry.tools.filter((op) => keyMayCall(key, op))) };
      lists.set(name, list);
    }
    return list;
  };
  return (principal) =>
    principal.scope !== 'write'
      ? listFor({ scope: 'read', publish: false })
      : listFor({ scope: 'write', publish: principal.publish });
}
