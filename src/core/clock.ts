/** Every reading of "now" goes through a clock so tests can set the date. */
export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
  /** Today's date in UTC as YYYY-MM-DD. */
  today(): string;
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export const systemClock: Clock = {
  now: () => Date.now(),
  today: () => isoDay(Date.now()),
};

/** A clock that stands still until moved; for tests. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: number | string) {
    this.ms = typeof start === 'number' ? start : Date.parse(start);
  }
  now(): number {
    return this.ms;
  }
  today(): string {
    return isoDay(this.ms);
  }
  set(to: number | string): void {
    this.ms = typeof to === 'number' ? to : Date.parse(to);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
