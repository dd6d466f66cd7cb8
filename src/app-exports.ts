/**
 * `session-agent-sim/app`: the simulator to embed: `createApp` for supertest or an Express host,
 * `createPipeline` on plain node:http, `startServer` on a socket. Its types reach into Express's, so it is a
 * subpath of its own: the main entry stays free of them for test authors who only start a simulator.
 */
export {
  createApp,
  createPipeline,
  createSimulator,
  type SimApp,
  type Simulator,
  type PipelineDeps,
} from './hosts/app.js';
export { startServer, type RunningSimulator } from './hosts/server.js';
export { loadSpec, type SpecIndex, type OperationDefinition } from './openapi/openapi.js';
export { checkAnswer } from './openapi/answer-check.js';
