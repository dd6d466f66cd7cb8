/** The skill kind's shapes: the scenario's skills, as `GET /api/skill` lists them. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    /** The scenario's skills (SkillV2Info); absent: the real server's built-in one. */
    readonly skills?: ReadonlyArray<Record<string, unknown>>;
  }
}

export {};
