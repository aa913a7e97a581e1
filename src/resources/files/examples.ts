import type { OperationExample } from '../../core/operation.ts';

const productId = 'gd_kKif6mbydYyv_ZEZ';

/** A spreadsheet of two lakes and a pass, saved as CSV with semicolons; one row has no position. */
const lakesCsv =
  'name;latitude;longitude;description\n' +
  'Lake Bled;46,3636;14,0938;The island church by pletna boat.\n' +
  'Lake Bohinj;46,2833;13,8833;\n' +
  'Vršič Pass;;;Hairpins 1 to 50 from Kranjska Gora.\n';

export const filesExamples = {
  import_spots: {
    input: { productId, format: 'csv', content: lakesCsv, dryRun: true },
    output: {
      productId,
      dryRun: true,
      created: 1,
      updated: 1,
      unchanged: 0,
      skipped: 1,
      items: [
        {
          where: 'row 4',
          kind: 'spot',
          action: 'skip',
          name: 'Vršič Pass',
          reason: 'no position: the file gives none, and none is guessed; add its coordinates to the file.',
        },
        { where: 'row 2', kind: 'spot', action: 'create', name: 'Lake Bled', spotKey: 'lake-bled' },
        {
          where: 'row 3',
          kind: 'spot',
          action: 'update',
          name: 'Lake Bohinj',
          spotKey: 'lake-bohinj',
          id: 'sp_Q2m8vX0bLw4tYc1N',
        },
      ],
      total: 3,
    },
  },
  upload_import_file: {
    input: { productId },
    output: {
      uploadId: 'upl_b3JxV9aQ1mZ0cK7e',
      productId,
      filename: 'julian-alps.kmz',
      bytes: 4_381_220,
      zip: true,
      expiresAt: 1_795_000_000_000,
    },
  },
} satisfies Record<string, OperationExample>;
