import { availableParallelism } from 'node:os';

/**
 * Buffers raw photo bodies are read into, kept from one upload to the next. A fresh 5 MB buffer is
 * mapped anew for each upload (npm start's fixed mmap threshold) and faulted in page by page as the
 * body lands, on the main thread while the body arrives: reading into a kept one cut a 4.9 MB POST
 * from 15.0-15.7 to 10.6-10.8 ms and the main thread's CPU for it from 9.5-9.9 to 6.0-6.5 ms
 * (docs/decisions/performance.md, "What an upload's body costs"). As many as photos render at once;
 * an upload that finds none free reads into a buffer of its own, as before.
 */
export class KeptBodies {
  /** The largest body a kept buffer holds. */
  readonly size: number;
  private readonly count: number;
  private readonly free: Buffer[] = [];
  private made = 0;

  constructor(size: number, count = Math.max(1, availableParallelism())) {
    this.size = size;
    this.count = count;
  }

  /** A buffer for a body of `length` bytes, or undefined when it does not fit or every one is lent. */
  take(length: number): Buffer | undefined {
    if (length > this.size) return undefined;
    const kept = this.free.pop();
    if (kept) return kept;
    if (this.made >= this.count) return undefined;
    this.made++;
    return Buffer.allocUnsafeSlow(this.size);
  }

  /** Back for the next upload: nothing may read the bytes it held from now on. */
  giveBack(buffer: Buffer): void {
    this.free.push(buffer);
  }

  /** Buffers taken and not given back. */
  get lent(): number {
    return this.made - this.free.length;
  }
}
