/** A promise with its resolvers exposed (see `deferred`). */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  /** Settles `promise` with `value`; later calls do nothing. */
  resolve(value: T): void;
  /** Rejects `promise` with `error`; later calls do nothing. */
  reject(error: unknown): void;
  /** True once `resolve` or `reject` was called. */
  readonly settled: boolean;
}

/**
 * A promise a test settles itself: hold a handler, a State call or a fake platform call until
 * the test lets it go, instead of sleeping. Settling twice is harmless (the first call wins).
 */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  let settled = false;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    promise,
    resolve(value) {
      settled = true;
      resolve(value);
    },
    reject(error) {
      settled = true;
      reject(error);
    },
    get settled() {
      return settled;
    },
  };
}
