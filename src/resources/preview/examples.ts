import type { OperationExample } from '../../core/operation.ts';

export const previewExamples = {
  create_preview_link: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      url: 'https://studio.example.com/studio/preview?token=Qm9hdHMgc3RhcnQgYXQgOC4gQnJpbmcgY2FzaC4gUGFyaw',
      expiresAt: 1795431600000,
    },
  },
} satisfies Record<string, OperationExample>;
