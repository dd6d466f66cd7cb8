/** The reference kind's shapes: the scenario's references, as the operation lists them. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly references: ReadonlyArray<Record<string, unknown>>;
  }
}

export {};
