/**
 * Admits work by the memory its decode takes, not by count alone: a job runs when the bytes already
 * in flight plus its own stay within the budget (one job always runs, however large), and at most
 * `slots` jobs run at once. Jobs start in arrival order, so a large one is never passed over forever.
 */
export class DecodeBudget {
  private inFlight = 0;
  private running = 0;
  private readonly waiting: Array<{ weight: number; start: () => void }> = [];
  private readonly bytes: number;
  private readonly slots: number;

  constructor(bytes: number, slots: number) {
    this.bytes = bytes;
    this.slots = slots;
  }

  async run<T>(weight: number, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push({ weight, start });
      this.admit();
    });
    try {
      return await work();
    } finally {
      this.inFlight -= weight;
      this.running -= 1;
      this.admit();
    }
  }

  private admit(): void {
    for (let next = this.waiting[0]; next !== undefined; next = this.waiting[0]) {
      const fits = this.running === 0 || (this.running < this.slots && this.inFlight + next.weight <= this.bytes);
      if (!fits) return;
      this.waiting.shift();
      this.inFlight += next.weight;
      this.running += 1;
      next.start();
    }
  }
}
