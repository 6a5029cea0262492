/**
 * Makes the lightweight class whose prototype is `light` an instance of the standard class whose
 * prototype is `standard` (`instanceof` holds), and forwards every member `light` does not define
 * itself (methods and getters) to the real standard object `real(this)` builds on first use.
 * `toRuntimeHandler`'s requests and plume's JSON responses use it to stay cheap until code asks for
 * more than they hold.
 */
export function forwardMembers<T extends object>(
  light: T,
  standard: object,
  real: (instance: T) => object,
): void {
  Object.setPrototypeOf(light, standard);
  for (const key of Reflect.ownKeys(standard)) {
    if (key === 'constructor' || key === Symbol.toStringTag || Object.hasOwn(light, key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(standard, key);
    if (descriptor === undefined) continue;
    if (typeof descriptor.value === 'function') {
      const method = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(light, key, {
        value(this: T, ...args: unknown[]) {
          return method.apply(real(this), args);
        },
        writable: true,
        configurable: true,
      });
    } else if (descriptor.get !== undefined) {
      Object.defineProperty(light, key, {
        get(this: T) {
          return Reflect.get(standard, key, real(this)) as unknown;
        },
        configurable: true,
      });
    }
  }
}
