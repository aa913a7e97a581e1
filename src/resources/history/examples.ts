/** One realistic call per operation, from the story of a guide to Slovenia's lakes and gorges. */
export const historyExamples = {
  list_changes: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', limit: 2 },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      changes: [
        {
          changeId: 'chg_Qm3xY7pLw2Rt9VbN',
          at: 1795600000000,
          operation: 'update_spot',
          by: { kind: 'assistant', name: 'Claude' },
          records: [{ kind: 'spot', id: 'sp_8wJqz1M4hVbKx0Tn' }],
          recordCount: 1,
          summary: 'changed spot',
          undoable: true,
        },
        {
          changeId: 'chg_Hn6Ze2KdP0sWq4Lr',
          at: 1795599000000,
          operation: 'upsert_spots',
          by: { kind: 'key', name: 'Laptop' },
          records: [
            { kind: 'spot', id: 'sp_8wJqz1M4hVbKx0Tn' },
            { kind: 'spot', id: 'sp_Lm2Tq9XvB7nCe5Ro' },
          ],
          recordCount: 2,
          summary: 'created spot ×2',
          undoable: false,
          undoneBy: 'chg_Vb1Yt8RcJ3mKa6Pe',
        },
      ],
      total: 14,
      nextCursor: 'WyJjaGFuZ2VzIiwxMl0',
    },
  },
  undo_changes: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', changeIds: ['chg_Qm3xY7pLw2Rt9VbN'] },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      undone: ['chg_Qm3xY7pLw2Rt9VbN'],
      changeId: 'chg_Ws5Ny0GkT2hQd8Zu',
    },
  },
};
