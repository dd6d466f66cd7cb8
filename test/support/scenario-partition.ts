/** A default partition serving a scenario given as YAML text, built in this process without a server. */
import { partitionReaders } from '../../src/control/readers.js';
import { KINDS } from '../../src/kinds/registry.js';
import { projectContext } from '../../src/openapi/location.js';
import type { SpecIndex } from '../../src/openapi/openapi.js';
import { parseScenario } from '../../src/scenarios/load-scenario.js';
import { createPartitions, type Partition } from '../../src/control/partitions.js';

export function scenarioPartition(yaml: string, spec: SpecIndex): Partition {
  return createPartitions({
    ...partitionReaders({ spec, kinds: KINDS, seed: 'demo' }),
    kinds: KINDS,
    seed: 'demo',
    realTime: false,
    initial: parseScenario(yaml, '<test>', spec),
    project: projectContext('/home/dev/acme-web'),
  }).default;
}
