/**
 * `next` of `value`: at once when the value is at hand, else once it comes. A cached read answers
 * without a promise at every step, and each promise awaited would be a turn of the microtask queue.
 */
export function then<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
