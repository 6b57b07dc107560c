/**
 * The named tracers, each registered by its own file (as geth's tracers register themselves): its name, the
 * tracerConfig switches it reads with their JSON Schemas, and how to start one. The spec's tracer enum and
 * tracerConfig properties (GethTraceConfig) are composed from this registry by `npm run codegen`, so a new tracer is
 * one new file here plus its import in tracers.ts. The struct logger, geth's default, has no name and is not listed.
 */
import type { Tracer } from './types.js';

/** A tracerConfig switch: JSON Schema of the value, with a description that starts with the tracer's name. */
export interface TracerConfigSchema {
  readonly type: 'boolean';
  readonly description: string;
}

export interface TracerRegistration {
  /** The name debug_trace*'s `tracer` field takes. */
  readonly name: string;
  /** False for the engine's own tracers (otsTracer, used by ots_*): no debug_trace* request may name them. */
  readonly listed: boolean;
  /** tracerConfig's switches this tracer reads, in the order the spec lists them. */
  readonly config: Readonly<Record<string, TracerConfigSchema>>;
  create(config: Readonly<Record<string, unknown>> | undefined): Tracer;
}

const registry = new Map<string, TracerRegistration>();

/** Called once by each tracer's module when it loads. */
export function registerTracer(registration: TracerRegistration): void {
  if (registry.has(registration.name)) throw new Error(`two tracers registered as ${registration.name}`);
  registry.set(registration.name, registration);
}

/** The registered tracer of that name; a name nobody registered is a bug (the request validator knows the names). */
export function tracerNamed(name: string): TracerRegistration {
  const registration = registry.get(name);
  if (registration === undefined) throw new Error(`no tracer is registered as ${name}`);
  return registration;
}

/** The tracers a request may name, in registration order (tracers.ts's import order). */
export function listedTracers(): TracerRegistration[] {
  return [...registry.values()].filter((r) => r.listed);
}

/** True for a tracerConfig switch: exactly `true` turns it on (geth's JSON decoding of a bool). */
export const configFlag = (config: Readonly<Record<string, unknown>> | undefined, key: string): boolean =>
  config?.[key] === true;
