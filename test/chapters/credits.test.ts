import assert from 'node:assert/strict';
import { test } from 'node:test';
import { creditFor } from '../../src/resources/chapters/photo-credit.ts';

// Until photos can be looked up, no chapter write reaches a photo; the credit rule is checked here.
test('a credit is kept with its photo, dropped with a warning without one, and a photo without one warns', () => {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  assert.equal(creditFor('intro.sections[0]', 'blob_abcdefgh', 'Ana Novak', warn), 'Ana Novak');
  assert.deepEqual(warnings, []);
  assert.equal(creditFor('intro.sections[1]', 'blob_abcdefgh', ' ', warn), undefined);
  assert.equal(creditFor('intro.sections[2]', undefined, 'Ana Novak', warn), undefined);
  assert.equal(
    creditFor('pages[0].blocks[1]', 'blob_abcdefgh', undefined, warn, { photo: 'storageId', credit: 'credit' }),
    undefined,
  );
  assert.deepEqual(warnings, [
    'intro.sections[1].photoStorageId has no photoCredit: ask the creator who took it (shown as "Photo: <name>").',
    'intro.sections[2].photoCredit was dropped: a credit is kept only with a photo (send photoStorageId with it).',
    'pages[0].blocks[1].storageId has no credit: ask the creator who took it (shown as "Photo: <name>").',
  ]);
});
