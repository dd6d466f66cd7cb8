/** The agent kind's shapes: the scenario's agents, as `GET /api/agent` lists them. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    /**
     * The scenario's agents (AgentV2Info, `permissions` absent where they take the rules every agent starts
     * from); absent: the real server's default agents.
     */
    readonly agents?: ReadonlyArray<Record<string, unknown> & { id: string }>;
  }
}

export {};
