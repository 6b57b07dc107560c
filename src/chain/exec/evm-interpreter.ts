/**
 * @ethereumjs/evm's `Interpreter` class, which the package does not export. Loaded by file next to the package
 * entry, so it is the same module instance the EVM uses and a wrapper installed on its prototype takes effect.
 * Undefined when the file or the class is not where this version keeps them (callers then install nothing).
 */
export async function interpreterPrototype<T extends object>(): Promise<T | undefined> {
  try {
    const entry = import.meta.resolve('@ethereumjs/evm');
    const mod = (await import(new URL('./interpreter.js', entry).href)) as { Interpreter?: { prototype: T } };
    return mod.Interpreter?.prototype;
  } catch {
    return undefined;
  }
}
