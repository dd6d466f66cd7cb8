/** The console kind's shapes: the Console orgs of the logged-in accounts, which one is active, its events. */

export interface ConsoleOrg {
  readonly accountID: string;
  readonly accountEmail: string;
  readonly accountUrl: string;
  readonly orgID: string;
  readonly orgName: string;
  /** The providers the org manages (`consoleManagedProviders` while it is the active one). */
  readonly providers: readonly string[];
}

export interface ConsoleChoice {
  readonly accountID: string;
  readonly orgID: string;
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly console: { readonly orgs: readonly ConsoleOrg[]; readonly active?: ConsoleChoice };
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly console: { active?: ConsoleChoice };
  }
  interface WorldSnapshot {
    /** The active org's account and org ids; null when none is (no account logged in). */
    console: { active: ConsoleChoice | null };
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: another org made the active one (the real server announces nothing). */
    'console.org.switched': ConsoleChoice;
  }
}

export {};
