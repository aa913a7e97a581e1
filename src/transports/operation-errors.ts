import { type ErrorCode, errorCatalogue } from '../core/errors.ts';
import type { AnyOperation } from '../core/operation.ts';

const READ_ERRORS: readonly ErrorCode[] = [
  'invalid_argument',
  'unauthenticated',
  'invalid_api_key',
  'forbidden',
  'rate_limited',
  'internal_error',
];
const WRITE_ERRORS: readonly ErrorCode[] = ['invalid_request', 'api_scope_required', 'payload_too_large'];

/**
 * The errors an operation can answer: the specification's rule 1 (every read; not_found when an id
 * is used), rule 2 (writes) and the declaration's own. The one list the OpenAPI document, the tool
 * description and the reference all show.
 */
export function errorCodesOf(op: AnyOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>(READ_ERRORS);
  if (Object.keys(op.input.shape).some((field) => field.endsWith('Id'))) codes.add('not_found');
  if (!op.readOnly) for (const code of WRITE_ERRORS) codes.add(code);
  for (const code of op.errors) codes.add(code);
  const order = Object.keys(errorCatalogue);
  return [...codes].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** The codes an operation answers beyond those every operation of its kind does: the tool description's line. */
export function ownErrorsOf(op: AnyOperation): ErrorCode[] {
  const common = new Set<ErrorCode>([...READ_ERRORS, ...(op.readOnly ? [] : WRITE_ERRORS)]);
  return errorCodesOf(op).filter((code) => !common.has(code));
}
