/**
 * The parts of the spec that come from the engine's tracer registry (src/chain/trace/registry.ts): GethTraceConfig's
 * `tracer` enum and description and its `tracerConfig` properties. The parts hold a placeholder in their place, so
 * the names are written once, by the tracers themselves.
 */
import { isDeepStrictEqual } from 'node:util';
import '../src/chain/trace/tracers.js';
import { listedTracers } from '../src/chain/trace/registry.js';
import type { JsonSchema, OpenRpcDocument } from './document.js';
import type { Derived } from './spec-parts.js';

export const FROM_REGISTRY = '<composed by npm run codegen from the tracer registry, src/chain/trace/registry.ts>';

interface Slots {
  tracer: JsonSchema;
  tracerConfig: JsonSchema;
}

function slotsOf(doc: OpenRpcDocument): Slots {
  const config = doc.components?.schemas?.GethTraceConfig as { properties?: Record<string, JsonSchema> } | undefined;
  const tracer = config?.properties?.tracer;
  const tracerConfig = config?.properties?.tracerConfig;
  if (!tracer || !tracerConfig)
    throw new Error('components.schemas.GethTraceConfig needs properties tracer and tracerConfig');
  return { tracer, tracerConfig };
}

/** What the registry says, as the spec writes it. */
function fromRegistry(): { enum: string[]; description: string; properties: Record<string, JsonSchema> } {
  const tracers = listedTracers();
  const names = tracers.map((t) => t.name);
  const properties: Record<string, JsonSchema> = {};
  for (const tracer of tracers)
    for (const [key, schema] of Object.entries(tracer.config)) {
      if (key in properties) throw new Error(`two tracers register the tracerConfig switch ${key}`);
      properties[key] = { ...schema };
    }
  return {
    enum: names,
    description: `one of the built-in tracers ${names.join(', ')} (leave it out for the struct logger)`,
    properties,
  };
}

export const tracerRegistry: Derived = {
  fill(doc) {
    const { tracer, tracerConfig } = slotsOf(doc);
    const derived = fromRegistry();
    for (const [slot, key] of [
      [tracer, 'enum'],
      [tracer, 'description'],
      [tracerConfig, 'properties'],
    ] as const) {
      if (slot[key] !== FROM_REGISTRY)
        throw new Error(
          `GethTraceConfig's ${key} in openrpc/components/schemas.json must be ${JSON.stringify(FROM_REGISTRY)}: tracers register themselves in src/chain/trace/`,
        );
    }
    tracer.enum = derived.enum;
    tracer.description = derived.description;
    tracerConfig.properties = derived.properties;
  },
  strip(doc) {
    const { tracer, tracerConfig } = slotsOf(doc);
    const derived = fromRegistry();
    const sameNames = isDeepStrictEqual([...(tracer.enum as string[])].sort(), [...derived.enum].sort());
    const sameConfig = isDeepStrictEqual(
      Object.fromEntries(Object.entries(tracerConfig.properties as object).sort(([a], [b]) => (a < b ? -1 : 1))),
      Object.fromEntries(Object.entries(derived.properties).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
    if (!sameNames || !sameConfig || tracer.description !== derived.description)
      throw new Error(
        "openrpc.json's tracers (GethTraceConfig: tracer's enum and description, tracerConfig's properties) are not " +
          'those the tracer registry gives: register a new tracer, or change its config, in its file in src/chain/trace/',
      );
    tracer.enum = FROM_REGISTRY;
    tracer.description = FROM_REGISTRY;
    tracerConfig.properties = FROM_REGISTRY;
  },
};
