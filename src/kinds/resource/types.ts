/** The resource kind's shapes: the MCP resources of the scenario's connected servers. */

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    /** McpResource records, in the order listed. */
    readonly resources: ReadonlyArray<Record<string, unknown> & { uri: string; client: string }>;
  }
}

export {};
