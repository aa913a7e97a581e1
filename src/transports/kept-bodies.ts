import { availableParallelism } from 'node:os';

/**
 * Buffers raw photo bodies are read into, kept from one upload to the next. A fresh 5 MB buffer is
 * mapped anew for each upload (npm start's fixed mmap threshold) and faulted in page by page on the
 * main thread as the body lands, slower than loopback delivers it: the body's arrival took 16 ms
 * into a fresh buffer against 7 ms into a kept one (bench/upload-client.ts). As many as photos
 * render at once; an upload that finds none free reads into a buffer of its own.
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
