import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DecodeBudget } from '../../src/resources/media/decode-budget.ts';

/** Runs jobs of the given weights at once; answers, for each job, the weights running beside it when it started. */
async function overlaps(budget: DecodeBudget, weights: number[]): Promise<number[][]> {
  const running = new Set<number>();
  const seen: number[][] = [];
  await Promise.all(
    weights.map((weight, i) =>
      budget.run(weight, async () => {
        seen[i] = [...running].map((j) => weights[j] as number);
        running.add(i);
        await new Promise((r) => setTimeout(r, 20));
        running.delete(i);
      }),
    ),
  );
  return seen;
}

describe('DecodeBudget', () => {
  it('runs small decodes side by side up to the slots, and one near the budget alone', async () => {
    const seen = await overlaps(new DecodeBudget(150, 2), [40, 40, 140, 40, 40]);
    assert.deepEqual(seen, [[], [40], [], [], [40]]);
  });

  it('runs a job over the whole budget alone rather than never', async () => {
    assert.deepEqual(await overlaps(new DecodeBudget(150, 2), [10, 400, 10]), [[], [], []]);
  });

  it('passes an error on and frees its share', async () => {
    const budget = new DecodeBudget(100, 2);
    await assert.rejects(
      budget.run(100, async () => {
        throw new Error('broken photo');
      }),
      /broken photo/,
    );
    assert.deepEqual(await overlaps(budget, [50, 50]), [[], [50]]);
  });
});
