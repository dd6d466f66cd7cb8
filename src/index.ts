export { createApp, createPipeline, type SimApp, type PipelineDeps } from './app.js';
export { startServer, type RunningSimulator } from './server.js';
export { resolveConfig, DEFAULTS, type SimOptions, type SimConfig } from './config.js';
export { loadSpec, type SpecIndex, type OperationDefinition } from './openapi.js';
export { checkAnswer } from './answer-check.js';
export * from './errors.js';
