/**
 * `session-agent-sim/msw` in the browser: the same core and pipeline as in Node, assembled from what the bundle
 * carries instead of files. The spec comes parsed, the fallback answers from the examples table Node worked out
 * with Prism, and scenarios are the bundled ones by name, objects, or YAML fetched from a URL. What needs Node
 * (Prism's generated bodies, the proxy, recording, files, the CLI) is not in the build.
 * `scripts/build-browser.mjs` bundles this module with its data into `dist/browser/msw.js`.
 */
import { resolveConfig } from '../config/config.js';
import { assembleCore } from '../pipeline/core.js';
import { fallbackLayer } from '../layers/fallback-layer.js';
import { tableFallback, type ExampleTable } from '../layers/example-table.js';
import { indexedSpec, specFromDocument, type SpecIndex } from '../openapi/openapi.js';
import { checkOptionNames, MSW_OPTIONS } from '../config/options.js';
import { mergeRedaction } from '../recordings/redact.js';
import { createSecretValues } from '../recordings/secret-values.js';
import type { ScenarioDefinition } from '../scenarios/definition.js';
import { isScenarioPath, refused, type ScenarioLibrary } from '../scenarios/scenario-library.js';
import { loadScenarioObject, parseScenario } from '../scenarios/load-scenario.js';
import { SimConfigError, SimScenarioNotFoundError } from '../errors/sim-errors.js';
import { mswSimulator, readBaseUrl, type MswSimulator } from './handlers.js';
import type { MswOptions } from '../config/options.js';

/** What the build puts in the bundle, worked out in Node. */
export interface BundleData {
  /** The simulator's spec, parsed, and the hash of its text (as Node names it). */
  document: Record<string, unknown>;
  hash: string;
  examples: ExampleTable;
  /** The scenarios folder, read and checked as Node's cache keeps it: name → definition. */
  definitions: Record<string, ScenarioDefinition>;
}

/** The browser's `simulatorHandlers`, given the bundle's data. */
export async function browserHandlers(data: BundleData, options: MswOptions = {}): Promise<MswSimulator> {
  checkOptionNames(options, MSW_OPTIONS, 'simulatorHandlers');
  const { baseUrl, ...rest } = options;
  const base = readBaseUrl(baseUrl);
  if (rest.dynamic)
    throw new SimConfigError(
      'dynamic answers need Node: the browser build answers from the spec’s examples',
      'Leave dynamic out in the browser, or run the simulator in Node (simulatorHandlers in msw/node, or npm start)',
    );
  if (typeof rest.spec === 'string')
    throw new SimConfigError(
      'the browser build reads no files: give spec as the parsed document',
      'Fetch the document and pass it, as in spec: await (await fetch("/openapi.json")).json()',
    );
  const config = resolveConfig({ log: () => {}, ...rest });
  const home = indexedSpec(data.document, data.hash);
  const spec = typeof config.spec === 'object' ? specFromDocument(config.spec) : home;
  // A scenario named by a path is a URL to fetch (relative to the page), read before the world is made.
  const fetched = new Map<string, string>();
  if (typeof config.scenario === 'string' && isScenarioPath(config.scenario))
    fetched.set(config.scenario, await fetchScenario(config.scenario));
  const secrets = createSecretValues(mergeRedaction(config.redact));
  const sim = assembleCore({
    config,
    home,
    spec,
    secrets,
    library: bundledLibrary(home, data.definitions, fetched),
    source: fallbackLayer(tableFallback(data.examples)),
  });
  return mswSimulator(sim, base);
}

const FETCHABLE = 'give a URL the page can fetch, a bundled scenario’s name, or the scenario as an object';

async function fetchScenario(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new SimScenarioNotFoundError(url, [], `fetching it failed (${(error as Error).message}): ${FETCHABLE}`);
  }
  if (!response.ok)
    throw new SimScenarioNotFoundError(url, [], `fetching it answered ${response.status}: ${FETCHABLE}`);
  return response.text();
}

/** Scenarios by name from the bundle (or fetched for this simulator), given as objects, or as YAML text. */
function bundledLibrary(
  spec: SpecIndex,
  definitions: Record<string, ScenarioDefinition>,
  fetched: Map<string, string>,
): ScenarioLibrary {
  const bundled = new Map(Object.entries(definitions));
  const available = () => [...bundled.keys()].sort();
  const named = (name: string): ScenarioDefinition => {
    const definition = bundled.get(name);
    if (definition) return definition;
    const text = fetched.get(name);
    if (text === undefined) throw new SimScenarioNotFoundError(name, available());
    const read = refused(() => parseScenario(text, name, spec));
    bundled.set(name, read);
    return read;
  };
  return {
    available,
    load: (source) => (typeof source === 'string' ? named(source) : refused(() => loadScenarioObject(source, spec))),
    loadNamed: named,
    loadText: (text, file) => refused(() => parseScenario(text, file, spec)),
  };
}
