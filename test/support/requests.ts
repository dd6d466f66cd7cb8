/**
 * One valid request for every operation, and the ids they use: the contract test's raw material. The
 * interface document's 23 are written by hand; the real server's others are made from their schemas
 * (`sampleFromSpec`), with a hand-written one wherever a made one would say nothing.
 */
import { deref, operations, parameters, requestBody } from './spec-validator.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
export const MSG = 'msg_203a52106001tZWYWeFGLbY095';
export const FRM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
export const SH = 'sh_203a7d1f3001QrStUvWxYz0123';
export const QUE = 'que_203a7e2a4001LmNoPqRsTuVwXy';
export const PROJECT_ID = '65831e286a96b4ffa21a844bd6bc948480c05a6d';

export interface SampleRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: string;
  body?: unknown;
}

const handWritten: Record<string, SampleRequest> = {
  'v2.form.request.list': { method: 'GET', path: '/api/form/request' },
  'v2.pty.create': {
    method: 'POST',
    path: '/api/pty',
    body: {
      command: '/bin/bash',
      args: ['-l'],
      cwd: '/home/dev/acme-web',
      title: 'dev server',
      env: { TERM: 'xterm-256color' },
    },
  },
  'v2.session.synthetic': {
    method: 'POST',
    path: `/api/session/${SES}/synthetic`,
    body: { text: 'Continue with the plan', description: 'nudge', metadata: {}, resume: true },
  },
  'v2.session.switchModel': {
    method: 'POST',
    path: `/api/session/${SES}/model`,
    body: { model: { id: 'claude-sonnet-4', providerID: 'anthropic' } },
  },
  'v2.projectCopy.create': {
    method: 'POST',
    path: `/experimental/project/${PROJECT_ID}/copy`,
    body: { strategy: 'git_worktree', directory: '/home/dev/copies', name: 'feature-x' },
  },
  'v2.session.question.reply': {
    method: 'POST',
    path: `/api/session/${SES}/question/${QUE}/reply`,
    body: { answers: [['Yes']] },
  },
  'v2.shell.timeout': { method: 'PATCH', path: `/api/shell/${SH}/timeout`, body: { timeout: 10000 } },
  'v2.session.compact': { method: 'POST', path: `/api/session/${SES}/compact`, body: { id: MSG } },
  'v2.session.permission.create': {
    method: 'POST',
    path: `/api/session/${SES}/permission`,
    body: { action: 'bash', resources: ['ls -la'] },
  },
  'v2.session.revert.stage': { method: 'POST', path: `/api/session/${SES}/revert/stage`, body: { messageID: MSG } },
  'v2.session.messages': { method: 'GET', path: `/api/session/${SES}/message`, query: 'limit=2' },
  'v2.model.default': { method: 'GET', path: '/api/model/default' },
  'v2.session.form.reply': {
    method: 'POST',
    path: `/api/session/${SES}/form/${FRM}/reply`,
    body: { answer: { name: 'acme-web' } },
  },
  'v2.integration.connect.key': {
    method: 'POST',
    path: '/api/integration/anthropic/connect/key',
    body: { key: 'sk-test-not-a-secret', label: 'Work' },
  },
  'v2.session.switchAgent': { method: 'POST', path: `/api/session/${SES}/agent`, body: { agent: 'plan' } },
  'v2.integration.list': { method: 'GET', path: '/api/integration' },
  'v2.integration.attempt.status': { method: 'GET', path: '/api/integration/attempt/con_203a64b00001CrBDw85dYNzrGb' },
  'v2.reference.list': { method: 'GET', path: '/api/reference' },
  'v2.fs.list': { method: 'GET', path: '/api/fs/list', query: 'path=src' },
  'v2.plugin.list': { method: 'GET', path: '/api/plugin' },
  'v2.credential.update': {
    method: 'PATCH',
    path: '/api/credential/cred_203a62d81001vkrjQIC7ANyh3p',
    body: { label: 'Renamed' },
  },
  'v2.session.instructions.entry.remove': {
    method: 'DELETE',
    path: `/api/session/${SES}/instructions/entries/AGENTS.md`,
  },
  'v2.shell.get': { method: 'GET', path: `/api/shell/${SH}` },
};

/** An id for a path parameter that fits its pattern: the scenario's own where the default scenario has one. */
const ID_BY_PREFIX: Record<string, string> = { ses: SES, msg_: MSG, frm_: FRM, sh_: SH, que: QUE };

const resolved = (node: JsonObject): JsonObject => deref(node).node;

/** The smallest value a schema accepts: required properties only, the first of any choice. */
export function minimalValue(schema: JsonObject | undefined, name = 'x', depth = 0): unknown {
  // A schema may contain itself: past this depth the smallest value is null.
  if (depth > 12) return null;
  const node = resolved(schema ?? {});
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (Array.isArray(node.allOf))
    return Object.assign({}, ...node.allOf.map((s: JsonObject) => minimalValue(s, name, depth + 1)));
  for (const choice of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(node[choice])) {
      const notNull = node[choice].find((s: JsonObject) => resolved(s).type !== 'null') ?? node[choice][0];
      return minimalValue(notNull, name, depth + 1);
    }
  const type = Array.isArray(node.type) ? node.type.find((t: string) => t !== 'null') : node.type;
  if (type === 'object' || (type === undefined && node.properties)) {
    const required: string[] = node.required ?? [];
    return Object.fromEntries(required.map((key) => [key, minimalValue(node.properties?.[key], key, depth + 1)]));
  }
  if (type === 'array') return node.minItems ? [minimalValue(node.items, name, depth + 1)] : [];
  if (type === 'integer' || type === 'number') return Math.max(node.minimum ?? 1, node.exclusiveMinimum ?? 0);
  if (type === 'boolean') return false;
  if (type === 'null') return null;
  if (typeof node.pattern === 'string') {
    const prefix = /^\^([A-Za-z_]+)/.exec(node.pattern)?.[1];
    if (prefix) return ID_BY_PREFIX[prefix] ?? `${prefix}${prefix.endsWith('_') ? '' : '_'}203a7c0e2001Ab3dEf4GhIjKlM`;
  }
  return `${name}-1`;
}

/** A valid request made from an operation's schemas: path ids of the right shape, required query and body. */
export function sampleFromSpec(operationId: string): SampleRequest {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  let path = op.path;
  const query: string[] = [];
  for (const p of parameters(operationId)) {
    const value = String(minimalValue(p.schema, p.name as string));
    if (p.in === 'path') path = path.replace(`{${p.name as string}}`, encodeURIComponent(value));
    else if (p.in === 'query' && p.required)
      query.push(`${encodeURIComponent(p.name as string)}=${encodeURIComponent(value)}`);
  }
  const body = requestBody(operationId);
  return {
    method: op.method as SampleRequest['method'],
    path,
    ...(query.length ? { query: query.join('&') } : {}),
    ...(body?.schema ? { body: minimalValue(body.schema) } : {}),
  };
}

/** Answers that never end (event streams, the PTY's WebSocket): checked over real sockets, not sampled here. */
export const STREAMING = new Set(['v2.event.subscribe', 'v2.session.events', 'v2.pty.connect']);
/**
 * Not fuzzed against a world with a deadline: the streams, and `wait`, which on a busy session answers only once
 * the virtual clock plays its turn out (test/integration/session-kind.test.ts waits for it over a real socket).
 */
export const UNSAMPLED = new Set([...STREAMING, 'v2.session.wait']);
/** Answers that are not one JSON body: the streams, and a file's bytes. */
export const NOT_JSON = new Set([...STREAMING, 'v2.fs.read']);

export const validRequests: Record<string, SampleRequest> = Object.fromEntries(
  operations
    .filter((o) => !STREAMING.has(o.operationId))
    .map((o) => [o.operationId, handWritten[o.operationId] ?? sampleFromSpec(o.operationId)]),
);

export function url(request: SampleRequest, extraQuery?: string): string {
  const query = [request.query, extraQuery].filter(Boolean).join('&');
  return query ? `${request.path}?${query}` : request.path;
}
