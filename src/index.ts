export { createApp, createPipeline, type SimApp, type PipelineDeps } from './app.js';
export { startServer, type RunningSimulator } from './http/server.js';
export { resolveConfig, DEFAULTS, type SimOptions, type SimConfig } from './config.js';
export { loadSpec, type SpecIndex, type OperationDefinition } from './spec/openapi.js';
export { checkAnswer } from './spec/answer-check.js';
export * from './errors.js';
export { startSimulator, type SimulatorHandle } from './start-simulator.js';
