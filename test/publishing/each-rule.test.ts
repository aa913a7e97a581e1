import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FindingCode, findingCodes, readinessRules } from '../../src/resources/publishing/index.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, useServer } from '../helpers/api.ts';
import { clientFor, clientLines } from '../helpers/clients.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { checkerFor, serve } from '../helpers/local-servers.ts';
import { ruleCases, type Stand, setAgreement, TODAY } from './readiness-cases.ts';

interface Finding {
  code: string;
  severity: string;
  message: string;
  where: { kind: string; id: string; name: string; field: string };
}

/** A local site that answers 404 to every page: the checker may reach it, and only it. */
const site = await serve((_req, res) => res.writeHead(404).end());
const linkChecker = checkerFor([site]);

/** A message reads as a sentence: a capital (or a quoted name) first, a full stop last, no run-on quote of an error. */
export function assertSentence(message: string): void {
  assert.match(message, /^["A-Z]/, `starts as a sentence: ${message}`);
  assert.match(message, /[.]$/, `ends with a full stop: ${message}`);
  assert.doesNotMatch(message, /[a-z] [A-Z][a-z]+ [a-z]+ [a-z]+ .*\. at /, `no error pasted mid-sentence: ${message}`);
  assert.doesNotMatch(message, /\.\./, `no doubled full stop: ${message}`);
}

const severityOf = (code: string) => readinessRules.find((rule) => rule.code === code)?.severity;

/**
 * One test per readiness rule, over REST and both MCP client lines, on each dialect: the smallest
 * guide that trips the rule (a ready guide with one thing wrong) shows that finding alone, in
 * readiness and in publish status; the fix the message names clears it from both.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`each readiness rule, tripped alone and cleared by its fix (${dialect})`, { skip }, () => {
    const suite = useServer({
      dialect,
      now: `${TODAY}T10:00:00Z`,
      services: { linkChecker },
      env: { RATE_LIMIT_LINK_CHECKS_PER_HOUR: '100000' },
    });

    it('every rule has a case, and every case a rule', () => {
      assert.deepEqual(Object.keys(ruleCases).sort(), [...findingCodes].sort());
    });

    async function standGuide(api: Api, code: FindingCode): Promise<Stand> {
      const productId = await newGuide(api, `Rule ${code}`);
      if (!ruleCases[code].noPrice) {
        assertOk(await api.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
      }
      assertOk(await api.call('set_guide_region', { productId, label: 'Bled', bbox: [13.5, 46.0, 14.5, 46.6] }));
      const spot = await api.call('create_spot', { productId, name: 'Lake', lat: 46.3, lon: 13.9 });
      assertOk(spot, 201);
      // On sale, as the studio leaves it: publish status then shows no gate but the findings.
      await suite.h.store.db.updateTable('guides').set({ status: 'published' }).where('id', '=', productId).execute();
      return {
        h: suite.h,
        api,
        key: suite.h.alice.writeKey,
        productId,
        spotId: spot.body.spotId,
        spotKey: spot.body.spotKey,
        goneUrl: `${site.origin}/gone/${code}`,
      };
    }

    const readiness = async (api: Api, productId: string) => {
      const a = await api.call('get_guide_readiness', { productId });
      assertOk(a);
      return a.body as { ready: boolean; blockingCount: number; warningCount: number; findings: Finding[] };
    };
    const status = async (api: Api, productId: string) => {
      const a = await api.call('get_publish_status', { productId });
      assertOk(a);
      return a.body as { blocking: { code: string }[]; warnings: { code: string }[]; blockingCount: number };
    };

    for (const line of clientLines) {
      describe(`through ${line}`, () => {
        for (const [code, rule] of Object.entries(ruleCases) as [FindingCode, (typeof ruleCases)[FindingCode]][]) {
          it(`${code}: tripped alone, then cleared by the fix its message names`, async () => {
            const api = clientFor(suite.h, line, suite.h.alice.writeKey);
            const stand = await standGuide(api, code);
            const made: Record<string, string> = {};
            try {
              if (!rule.noPrice) assert.deepEqual((await readiness(api, stand.productId)).findings, [], 'ready before');
              Object.assign(made, await rule.cause(stand));
              const tripped = await readiness(api, stand.productId);
              assert.ok(tripped.findings.length > 0, `${code} found`);
              for (const f of tripped.findings) {
                assert.equal(f.code, code, `only ${code}: ${JSON.stringify(f)}`);
                assert.equal(f.severity, severityOf(code));
                assert.equal(f.where.kind, rule.where.kind);
                assert.match(f.where.field, rule.where.field);
                assertSentence(f.message);
              }
              const blocking = severityOf(code) === 'blocking';
              assert.equal(tripped.ready, !blocking);
              const before = await status(api, stand.productId);
              const listed = blocking ? before.blocking : before.warnings;
              assert.ok(
                listed.some((g) => g.code === code),
                `publish status lists ${code}`,
              );

              await rule.fix(stand, made);
              const cleared = await readiness(api, stand.productId);
              assert.deepEqual(cleared.findings, [], `${code} cleared by its fix`);
              assert.equal(cleared.ready, true);
              const after = await status(api, stand.productId);
              assert.deepEqual([...after.blocking, ...after.warnings], []);
              assert.equal(after.blockingCount, 0);
            } finally {
              // The agreement is the creator's, shared by every guide of the suite.
              await setAgreement(suite.h, 1);
              await api.close();
            }
          });
        }
      });
    }
  });
}
