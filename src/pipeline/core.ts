/**
 * The simulator's core put together: partitions (state, clock, log and its readers) and the layers that answer,
 * in front of a source the host chose. The Node server (`app.ts`) and the in-process hosts (`msw/`, the browser
 * build) assemble the same core; they differ only in the source (Prism's fallback or a stored examples table,
 * an upstream, a recording) and in where scenarios come from.
 */
import { EVENT_STREAM_OPERATION, eventStreamLayer } from '../layers/event-stream.js';
import { kindStreamsLayer } from '../layers/kind-streams.js';
import { runtimeRuleLayer, scenarioRuleLayer } from '../layers/rules.js';
import { worldLayer } from '../layers/world.js';
import type { Layer } from '../layers/layer.js';
import type { PassThrough } from '../layers/pass-through.js';
import type { SimConfig } from '../config/config.js';
import { partitionReaders } from '../control/readers.js';
import { createExchangePrinter } from '../control/exchange-printer.js';
import { createPartitions } from '../control/partitions.js';
import { KINDS } from '../kinds/registry.js';
import type { ScenarioLibrary } from '../scenarios/scenario-library.js';
import { rebaseScenario } from '../scenarios/load-scenario.js';
import { projectContext } from '../openapi/location.js';
import type { SpecIndex } from '../openapi/openapi.js';
import { specVersion } from '../openapi/spec-version.js';
import type { SecretValues } from '../recordings/secret-values.js';
import type { PipelineDeps } from './pipeline.js';

export interface CoreParts {
  config: SimConfig;
  /** The simulator's own spec: what the world and scenarios are written for. */
  home: SpecIndex;
  /** The document served (the home spec, or another version of the interface). */
  spec: SpecIndex;
  secrets: SecretValues;
  /** The last layer, which always answers. */
  source: Layer;
  passThrough?: PassThrough;
  /** Where scenarios come from (the mock only). */
  library?: ScenarioLibrary;
}

export function assembleCore(parts: CoreParts): PipelineDeps {
  const { config, home, spec, secrets, passThrough, library } = parts;
  // Another version of the interface: the world keeps the operations whose shapes still fit (spec-version.ts).
  const worldOperations = new Set([
    ...Object.keys(KINDS.handlers),
    ...Object.keys(KINDS.streams),
    EVENT_STREAM_OPERATION,
  ]);
  const version =
    spec.hash === home.hash
      ? undefined
      : specVersion(home, spec, worldOperations, typeof config.spec === 'object' ? 'object' : config.specPath);
  const simulated = version && new Set(version.simulated);
  // Served by every partition whose scenario declares no project of its own.
  const project = projectContext(config.projectDir, config.projectId);
  const initial = config.scenario === undefined || !library ? undefined : library.load(config.scenario);
  const printer =
    config.logExchanges === undefined
      ? undefined
      : createExchangePrinter(config.logExchanges, { scrub: secrets.scrub, log: config.log });
  const partitions = createPartitions({
    kinds: KINDS,
    seed: config.seed,
    realTime: config.realTime,
    rebase: (definition, at) => rebaseScenario(definition, at, spec),
    initial,
    max: config.maxPartitions,
    project,
    ...partitionReaders({
      spec,
      kinds: KINDS,
      seed: config.seed,
      maxSubscribers: config.maxSubscribers,
      printer,
      simEvents: config.simEvents,
    }),
  });
  const layers: Layer[] = [
    runtimeRuleLayer(),
    scenarioRuleLayer(),
    // The simulated world's own event stream belongs to the mock: in front of a real server (or its recording)
    // the upstream's stream passes through. Left out by mode rather than declining per request when there is
    // no world, because a mock without a scenario (`--scenario none`) has no world yet still serves its stream.
    ...(passThrough ? [] : [eventStreamLayer, kindStreamsLayer(KINDS)]),
    // Declines wherever the partition has no world, which is always so in the pass-through modes.
    worldLayer(KINDS),
  ].map((layer) => (simulated && layer.answersAs === 'scenario' ? onlyFor(layer, simulated) : layer));
  layers.push(parts.source);
  return {
    config,
    passThrough,
    spec,
    ticketed: KINDS.ticketed,
    partitions,
    layers,
    library,
    secrets,
    specVersion: version,
    printer,
    inputErrors: KINDS.inputErrors,
    queryChecks: KINDS.queryChecks,
  };
}

/** A layer of the world that declines the operations whose served shape it was not written for. */
function onlyFor(layer: Layer, operations: ReadonlySet<string>): Layer {
  return {
    ...layer,
    respond: (request) => (operations.has(request.operation.operationId) ? layer.respond(request) : undefined),
  };
}
