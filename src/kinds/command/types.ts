/** The command kind's shapes: the scenario's commands, as `GET /api/command` lists them. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    /** The scenario's commands (CommandV2Info); absent: the real server's defaults. */
    readonly commands?: ReadonlyArray<Record<string, unknown>>;
  }
}

export {};
