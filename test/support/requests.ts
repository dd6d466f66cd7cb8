/**
 * One valid request for each of the 23 operations, and the ids they use: the contract test's raw material.
 */
export const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
export const MSG = 'msg_203a52106001tZWYWeFGLbY095';
export const FRM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
export const SH = 'sh_203a7d1f3001QrStUvWxYz0123';
export const QUE = 'que_203a7e2a4001LmNoPqRsTuVwXy';
export const PROJECT_ID = '65831e286a96b4ffa21a844bd6bc948480c05a6d';

export interface SampleRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: string;
  body?: unknown;
}

export const validRequests: Record<string, SampleRequest> = {
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

export function url(request: SampleRequest, extraQuery?: string): string {
  const query = [request.query, extraQuery].filter(Boolean).join('&');
  return query ? `${request.path}?${query}` : request.path;
}
