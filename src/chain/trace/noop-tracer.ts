/** geth's `noopTracer`: runs the transaction and answers `{}` (what a trace costs without any recording). */
import type { Tracer } from './types.js';
import { registerTracer } from './registry.js';

export class NoopTracer implements Tracer {
  result(): Record<string, never> {
    return {};
  }
}

registerTracer({ name: 'noopTracer', listed: true, config: {}, create: () => new NoopTracer() });
