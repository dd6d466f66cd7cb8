/** The model kind's shapes: the scenario's default model record. */

declare module '../../scenarios/definition.js' {
  interface ScenarioSections {
    readonly model?: Record<string, unknown>;
  }
}

export {};
