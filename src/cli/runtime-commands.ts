/**
 * The commands around the real runtime: `model` (a scenario's turns as an OpenAI-compatible model) and `real`
 * (opencode serve, offline, wired to it). Part of the one table of commands (`commands.ts`).
 */
import type { CommandSpec } from './commands.js';

export const RUNTIME_COMMANDS = {
  model: {
    summary: "serve a scenario's turns as an OpenAI-compatible model, for a real runtime to play",
    usage: 'model [options]',
    description: [
      'Serves POST /v1/chat/completions (streamed or not) and GET /v1/models. A real runtime wired to it (see',
      "--print-config) asks it once a model step, and gets what the simulator's same step of the same turn shows:",
      "reasoning, text and tool calls (fitted to the tools the runtime offers), with the script's pauses. A retry",
      'step answers an HTTP error with retry-after, fail a client error that ends the turn, a long `after` a',
      'model that hangs until the runtime gives up on it. What no script covers gets a short answer.',
    ],
    options: [
      { name: 'scenario' },
      { name: 'match' },
      { name: 'pace' },
      { name: 'port', help: 'port to listen on; 0 picks a free one (default: 4011)' },
      { name: 'host' },
      { name: 'api-key' },
      { name: 'model-recording' },
      { name: 'model-replay' },
      { name: 'print-config' },
    ],
    arguments: { min: 0, max: 0 },
    examples: [
      ["the default scenario's turns on http://127.0.0.1:4011/v1", 'session-agent-sim model'],
      [
        'the opencode.json for a real server in the current directory',
        'session-agent-sim model --print-config > opencode.json',
      ],
      ['every answer at once, for tests', 'session-agent-sim model --scenario ./turns.yaml --pace 0 --port 0'],
    ],
  },
  real: {
    summary: "run the real runtime (opencode serve) offline, its model the scenario's turns",
    usage: 'real [options]',
    description: [
      'Starts opencode serve on loopback in a throwaway git workspace (or --dir) with a throwaway HOME, its only',
      "model the scenario's turns served as by `model`. A prompt then plays a real turn: the runtime's own loop,",
      "its real tools in the workspace, its events on /api/event. The scenario's agents' permission rules are the",
      "runtime's, so a tool whose rule says ask asks mid-turn. Nothing leaves the machine: the web tools are",
      'denied, downloads are off, and it refuses to start without rg on PATH. SIGINT or SIGTERM stops everything.',
    ],
    options: [
      { name: 'scenario' },
      { name: 'match' },
      { name: 'pace' },
      { name: 'opencode' },
      { name: 'dir' },
      { name: 'port', help: "port for the runtime; 0 picks a free one (default: 4096, the runtime's own)" },
      { name: 'host' },
      {
        name: 'auth',
        help: "the runtime's Basic auth: PASS (user opencode) or USER:PASS, as OPENCODE_SERVER_PASSWORD",
      },
      { name: 'model-recording' },
      { name: 'model-replay' },
    ],
    arguments: { min: 0, max: 0 },
    examples: [
      ["the real runtime playing the default scenario's turns, on http://127.0.0.1:4096", 'session-agent-sim real'],
      ['your turns, in your own checkout', 'session-agent-sim real --scenario ./turns.yaml --dir ~/src/acme-web'],
      [
        'record real turns through the simulator',
        'session-agent-sim record --upstream http://127.0.0.1:4096 --recording recordings/turns.yaml',
      ],
    ],
  },
} as const satisfies Record<string, CommandSpec>;
