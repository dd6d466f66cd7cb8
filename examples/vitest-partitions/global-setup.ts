// One simulator for the whole run, started before any worker; every worker gets its URL.
import { startSimulator } from 'session-agent-sim';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    simUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const sim = await startSimulator({ scenario: 'forms-settling' });
  project.provide('simUrl', sim.url);
  return () => sim.close();
}
