/**
 * Every method of the official client that sends a JSON body, through msw's `setupServer` and the simulator's
 * handlers, in whatever environment the calling test file names (`// @vitest-environment …`): the component-test
 * environments the docs recommend (happy-dom, jsdom) hand msw a `Request` of their own, whose header names may
 * keep the case the client wrote (`Content-Type`), and the simulator must read them all the same. One file per
 * environment calls `clientBodiesSuite`, as vitest picks an environment per file.
 *
 * Each method acts on something of the `default` scenario (its sessions, the pending permission and question,
 * the PTY, the integrations and their credential), and is answered by the world with the success the spec
 * declares for it, checked against the spec on the way (no violations).
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MswOptions, MswSimulator } from '../../src/msw/index.js';
import { DEFAULT_SPEC_PATH, loadSpecOnce } from '../../src/openapi/openapi.js';

type V2 = ReturnType<typeof createOpencodeClient>['v2'];
interface Result {
  response: Response;
  data?: unknown;
  error?: unknown;
}

const MAIN = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const ASKED = 'ses_dfc5ad9f0ffeQm3LpX8vT2bNcR';
const FRESH = 'ses_dfc5ab003ffeNewSessionAbCd';
const PROJECT = '407a151faf7088522a029c563e779174ca135d19';
const ATTEMPT = 'con_203a64b00001CrBDw85dYNzrGb';
const COPY = { projectID: PROJECT, strategy: 'git_worktree', directory: '/home/dev/copies', name: 'dark-mode' };

interface Call {
  call(v2: V2): Promise<Result>;
  /**
   * The declared error the data at hand legitimately gets instead of the success, by its `_tag` and a part of
   * its message: the world's own words, so the body went past validation.
   */
  refused?: { status: number; _tag: string; message: string };
}

/** By the client's path to the method (`v2.` left off), which is also the operation's id. */
const CALLS: Record<string, Call> = {
  'session.create': { call: (v2) => v2.session.create({ agent: 'build' }) },
  'session.switchAgent': { call: (v2) => v2.session.switchAgent({ sessionID: MAIN, agent: 'plan' }) },
  'session.switchModel': {
    call: (v2) =>
      v2.session.switchModel({ sessionID: MAIN, model: { id: 'claude-sonnet-4-5', providerID: 'anthropic' } }),
  },
  'session.prompt': {
    call: (v2) => v2.session.prompt({ sessionID: FRESH, prompt: { text: 'Add a dark mode toggle' } }),
  },
  'session.revert.stage': {
    call: (v2) => v2.session.revert.stage({ sessionID: MAIN, messageID: 'msg_203a52106001tZWYWeFGLbY095' }),
  },
  'session.permission.create': {
    call: (v2) => v2.session.permission.create({ sessionID: MAIN, action: 'bash', resources: ['npm run lint'] }),
  },
  'session.permission.reply': {
    call: (v2) =>
      v2.session.permission.reply({ sessionID: ASKED, requestID: 'per_203a58f870013Wia5K5pJuTBrA', reply: 'once' }),
  },
  'session.question.reply': {
    call: (v2) =>
      v2.session.question.reply({
        sessionID: MAIN,
        requestID: 'que_203a7e2a4001LmNoPqRsTuVwXy',
        questionV2Reply: { answers: [['Circle']] },
      }),
  },
  'integration.connect.key': {
    call: (v2) => v2.integration.connect.key({ integrationID: 'openrouter', key: 'sk-or-v1-0000', label: 'Personal' }),
  },
  'integration.connect.oauth': {
    call: (v2) => v2.integration.connect.oauth({ integrationID: 'openai', methodID: 'chatgpt-browser', inputs: {} }),
  },
  // The scenario's OAuth flows finish by themselves (its attempt on the third poll), as a browser flow does on
  // the real server, which refuses a code for one: no flow of the scenario waits for a code pasted back.
  'integration.attempt.complete': {
    call: (v2) => v2.integration.attempt.complete({ attemptID: ATTEMPT, code: 'code-from-the-browser' }),
    refused: {
      status: 400,
      _tag: 'InvalidRequestError',
      message: `OAuth attempt already completing: ${ATTEMPT}`,
    },
  },
  'credential.update': {
    call: (v2) => v2.credential.update({ credentialID: 'cred_203a62d81001vkrjQIC7ANyh3p', label: 'Team key' }),
  },
  'pty.create': { call: (v2) => v2.pty.create({ command: '/bin/bash', args: ['-l'], title: 'bash' }) },
  'pty.update': {
    call: (v2) =>
      v2.pty.update({ ptyID: 'pty_203a5ad4f0011C7Y4ftsC84JMU', title: 'zsh (wide)', size: { rows: 40, cols: 160 } }),
  },
  'projectCopy.create': { call: (v2) => v2.projectCopy.create(COPY) },
  // A copy made first, to have one to remove.
  'projectCopy.remove': {
    call: async (v2) => {
      const made = await v2.projectCopy.create(COPY);
      const { directory } = made.data as { directory: string };
      return v2.projectCopy.remove({ projectID: PROJECT, directory, force: false });
    },
  },
};

/**
 * The client's methods that send a body, read from the client itself: the generated code names the
 * parameters it puts in the body (`in: "body"`, or `map: "body"` for one passed whole).
 */
export function bodyMethods(v2: V2): string[] {
  const found: string[] = [];
  const walk = (node: object, path: string) => {
    const prototype = Object.getPrototypeOf(node) as object;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const property = Object.getOwnPropertyDescriptor(prototype, name);
      if (name === 'constructor' || !property) continue;
      const at = path ? `${path}.${name}` : name;
      if (property.get) walk((node as Record<string, object>)[name] as object, at);
      else if (typeof property.value === 'function' && /\b(?:in|map): "body"/.test(String(property.value)))
        found.push(at);
    }
  };
  walk(v2, '');
  return found.sort();
}

/** What the suite asserts of its environment, so that a file naming the wrong one fails rather than passes. */
export type Environment = 'happy-dom' | 'jsdom' | 'node';

function environmentNow(): Environment {
  if (typeof document === 'undefined') return 'node';
  return typeof (globalThis as { happyDOM?: unknown }).happyDOM === 'object' ? 'happy-dom' : 'jsdom';
}

export function clientBodiesSuite(
  environment: Environment,
  simulatorHandlers: (options: MswOptions) => Promise<MswSimulator>,
  label: string = environment,
): void {
  describe(`the official client's bodies through msw, under ${label}`, () => {
    let sim: MswSimulator;
    let v2: V2;
    const server = setupServer();

    // The first simulator of a process loads the spec and the scenarios: seconds on a busy machine.
    beforeAll(async () => {
      sim = await simulatorHandlers({ scenario: 'default' });
      server.use(...sim.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      v2 = createOpencodeClient({ baseUrl: sim.url }).v2;
    }, 60_000);
    afterEach(() => sim.reset());
    afterAll(async () => {
      server.close();
      await sim.close();
    });

    it(`runs under ${environment}`, () => {
      expect(environmentNow()).toBe(environment);
    });

    it('calls every method of the client that sends a body', () => {
      expect(Object.keys(CALLS).sort()).toEqual(bodyMethods(v2));
    });

    it.each(Object.keys(CALLS))('v2.%s: the success the spec declares', async (method) => {
      const operationId = `v2.${method}`;
      const operation = (await loadSpecOnce(DEFAULT_SPEC_PATH)).byId.get(operationId);
      const { call, refused } = CALLS[method] as Call;
      const { response, data, error } = await call(v2);
      if (refused) {
        expect(response.status).toBe(refused.status);
        expect(error).toMatchObject({ _tag: refused._tag, message: expect.stringContaining(refused.message) });
      } else {
        expect(error, JSON.stringify(error)).toBeUndefined();
        expect(response.status).toBe(operation?.successStatus);
        if (response.status !== 204) expect(data).toBeTypeOf('object');
      }
      expect(response.headers.get('x-sim-operation')).toBe(operationId);
      // The world acted on it (not the fallback's example), and the answer is one the spec declares.
      expect(response.headers.get('x-sim-layer')).toBe('scenario');
      expect(response.headers.get('x-sim-violations')).toBeNull();
    });
  });
}
