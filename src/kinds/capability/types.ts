/** The capability kind's shapes: the experimental features the scenario's server has on. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    /** ExperimentalCapabilities, defaults filled in. */
    readonly capabilities: { readonly backgroundSubagents: boolean };
  }
}

export {};
