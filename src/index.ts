/**
 * `session-agent-sim`: what a test needs: `startSimulator` (in this process) or `connectSimulator` (to one
 * started elsewhere, e.g. in vitest's globalSetup), the handle they return, and the error bodies. Embedding
 * the app in Express or supertest is `session-agent-sim/app`.
 */
export { startSimulator, type StartOptions } from './hosts/start-simulator.js';
export {
  connectSimulator,
  type SimulatorHandle,
  type ScenarioInput,
  type ConnectOptions,
  type CoverageOptions,
} from './handle/simulator-handle.js';
export { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './scripted-model/scripted-model.js';
export { resolveConfig, DEFAULTS, type SimOptions, type SimConfig } from './config/config.js';
export * from './errors/errors.js';
export * from './kinds/api-errors.js';
export { defineScenario, defineRule } from './scenarios/define.js';
/** The scenario format as types: `Scenario`, `ScenarioRule`, and one per `$defs` entry (`ScenarioSession`, …). */
export type * from './format/scenario-types.js';
export type { SimState, ClockState } from './control/state-body.js';
export type { WorldSnapshot } from './state/world.js';
export type { CoverageReport } from './control/coverage.js';
export type { JournalEntry } from './control/journal.js';
export type { ExchangeLogOption, ExchangeRecord } from './control/exchange-printer.js';
export type { Violation } from './openapi/violation.js';
export type { RuleListing } from './state/rule-store.js';
export type { DomainEvent, EventType, EventCatalog } from './state/events.js';
export type { LogEntry } from './state/log.js';
