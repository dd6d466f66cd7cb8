/** The plugin kind's shapes: the ids of the plugins the scenario has loaded. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly plugins: readonly string[];
  }
}

export {};
