/**
 * @ethereumjs/evm's `Interpreter` class, which the package does not export. Loaded by file next to the package
 * entry, so it is the same module instance the EVM uses and a wrapper installed on its prototype takes effect.
 * Undefined when the file or the class is not where this version keeps them (callers then install nothing).
 * In the bundle `svc-node` starts from, bin/bundle.js replaces this module by a static import of the same file from
 * the bundled EVM (a run-time import would load a second copy); it looks for the `import.meta.resolve` call below.
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
