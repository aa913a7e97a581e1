import { after, before, describe, test } from 'node:test';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { assertMcpIsolation, assertOwnerSucceeds, assertRestIsolation } from './helpers/isolation.ts';

/**
 * Tenant isolation, for every operation of the registry whose path holds an id: another creator's
 * id and an id that does not exist give identical 404 not_found answers, on REST and MCP. Each is
 * called with its declared example (test/helpers/isolation.ts), so a new operation needs no edit here.
 */

for (const { dialect, skip } of await testDialects()) {
  describe(`tenant isolation (${dialect})`, { skip }, () => {
    let h: Harness;

    before(async () => {
      h = await startServer({ dialect });
    });
    after(() => h?.close());

    test("REST: every operation with an id answers another creator's id exactly like a missing one", async () => {
      await assertRestIsolation(h, h.app.registry.operations);
    });

    test("MCP: every tool with an id answers another creator's id exactly like a missing one", async () => {
      await assertMcpIsolation(h, h.app.registry.operations);
    });

    test('the owner succeeds with the same inputs the isolation tests use', async () => {
      await assertOwnerSucceeds(h, h.app.registry.operations);
    });
  });
}
