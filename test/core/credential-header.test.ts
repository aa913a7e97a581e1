import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractCredential } from '../../src/core/auth.ts';
import { headerText } from '../../src/core/headers.ts';

/** What the Authorization header's rule takes, as it was written before the common form was read without it. */
function byTheRule(authorization: string): { value: string; scheme: string } | 'refused' {
  const match = /^(Bearer|DPoP)\s+(\S+)$/i.exec(headerText(authorization) as string);
  if (!match) return 'refused';
  return { value: match[2] as string, scheme: match[1]?.toLowerCase() === 'dpop' ? 'dpop' : 'bearer' };
}

describe('the Authorization header', () => {
  it('is read as its rule reads it, in the common form and every other', () => {
    const key = 'sk_service_0123456789abcdefghijklmnopqrstuv';
    for (const header of [
      `Bearer ${key}`,
      `bearer ${key}`,
      `BEARER ${key}`,
      `Bearer  ${key}`,
      `Bearer\t${key}`,
      `Bearer ${key} `,
      `Bearer ${key}\t`,
      `Bearer ${key} more`,
      `Bearer \u00a0${key}`,
      `Bearer ${key}\u00a0`,
      `Bearer ${key}\u2028`,
      `Bearer ${key}\ufeff`,
      `DPoP ${key}`,
      `dpop  ${key}`,
      `Bearer `,
      `Bearer ${key}\u00a0x`,
      `Bearer ${key}\u3000x`,
      `Bearer`,
      `Bearerx ${key}`,
      `Basic ${key}`,
      ` Bearer ${key}`,
      `Bearer é${key}`,
    ]) {
      let read: ReturnType<typeof byTheRule>;
      try {
        read = extractCredential({ authorization: header });
      } catch (err) {
        assert.equal((err as { code?: string }).code, 'unauthenticated', JSON.stringify(header));
        read = 'refused';
      }
      assert.deepEqual(read, byTheRule(header), JSON.stringify(header));
    }
  });
});
