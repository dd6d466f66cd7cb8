/** The tool kind's shapes: the scenario's tools, and which models get each. */

export interface ToolDefinition {
  readonly id: string;
  readonly description: string;
  readonly parameters: unknown;
  /** A pattern `provider/model` must match for the tool to be listed (`GET /experimental/tool`). */
  readonly only?: string;
  /** A pattern `provider/model` must not match. */
  readonly except?: string;
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    /** The scenario's tools; absent: the real server's built-in ones. */
    readonly tools?: readonly ToolDefinition[];
  }
}

export {};
