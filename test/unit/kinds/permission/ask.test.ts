/**
 * What asking for a permission and replying to one make happen, decided against a world: the agent's rules
 * decide as the real server's do, saved patterns allow what would ask, each reply settles what the real
 * server settles, and the partition's bound holds.
 */
import { describe, expect, it } from 'vitest';
import { defaultAgents, type Rule } from '../../../../src/kinds/agent/defaults.js';
import {
  askPermission,
  coveredBy,
  evaluatePermission,
  replyPermission,
  ruleEffect,
} from '../../../../src/kinds/permission/ask.js';
import { permission } from '../../../../src/kinds/permission/permission.js';
import type { PermissionRequestRecord, PermissionState } from '../../../../src/kinds/permission/types.js';
import { wildcardMatch } from '../../../../src/kinds/permission/wildcard.js';
import { PERMISSION_LIMITS } from '../../../../src/kinds/permission/limits.js';
import { SimResourceLimitError } from '../../../../src/errors/errors.js';
import type { DomainEvent, EventDraft } from '../../../../src/state/events.js';
import { createIds, createRandom } from '../../../../src/state/random.js';
import type { World } from '../../../../src/state/world.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const OTHER = 'ses_dfc5ad9f0ffeQm3LpX8vT2bNcR';
const NOW = Date.parse('2026-11-25T10:00:00Z');

function worldWith(requests: PermissionRequestRecord[] = [], saved: World['savedPermissions'] = new Map()): World {
  const permissions = new Map<string, PermissionState>(
    requests.map((record) => [record.id, { record, status: 'pending' }]),
  );
  return { ids: createIds(createRandom('test')), permissions, savedPermissions: saved } as unknown as World;
}

const request = (id: string, sessionID: string, action: string, resources: string[], save?: string[]) => ({
  id,
  sessionID,
  action,
  resources,
  ...(save ? { save } : {}),
});

/** Applies drafts the way a commit does (the permission kind's appliers only). */
function apply(world: World, drafts: EventDraft[]): void {
  for (const d of drafts) {
    const applier = permission.appliers?.[d.type] as ((w: World, e: DomainEvent) => void) | undefined;
    applier?.(world, { ...d, kind: 'event', seq: 0, id: 'evt_x', time: NOW, cause: { request: 'r' } } as DomainEvent);
  }
}

const replies = (drafts: EventDraft[]) =>
  drafts
    .filter((d) => d.type === 'permission.v2.replied')
    .map((d) => [(d.data as { requestID: string }).requestID, (d.data as { reply: string }).reply]);

describe('permission patterns', () => {
  it('match as the real server matches: any run, one character, and an optional tail after " *"', () => {
    expect(wildcardMatch('/etc/hosts', '/etc/*')).toBe(true);
    expect(wildcardMatch('/var/etc/hosts', '/etc/*')).toBe(false);
    expect(wildcardMatch('ls', 'ls *')).toBe(true);
    expect(wildcardMatch('ls -la', 'ls *')).toBe(true);
    expect(wildcardMatch('lsof', 'ls *')).toBe(false);
    expect(wildcardMatch('a1.txt', 'a?.txt')).toBe(true);
    expect(wildcardMatch('a12.txt', 'a?.txt')).toBe(false);
    // Regular-expression characters are themselves.
    expect(wildcardMatch('src/(app).ts', 'src/(app).ts')).toBe(true);
    expect(wildcardMatch('srcXapp.ts', 'src.app.ts')).toBe(false);
  });

  it('allow a request only when every resource matches a pattern saved for its action', () => {
    const saved = [{ id: 'psv_1', action: 'edit', resource: 'src/*' }];
    expect(coveredBy(saved, 'edit', ['src/a.ts', 'src/b.ts'])).toBe(true);
    expect(coveredBy(saved, 'edit', ['src/a.ts', 'test/b.ts'])).toBe(false);
    expect(coveredBy(saved, 'bash', ['src/a.ts'])).toBe(false);
    expect(coveredBy([], 'edit', [])).toBe(false);
  });
});

describe('askPermission', () => {
  it('asks with the request as the client types it, optional fields only when given', () => {
    const world = worldWith();
    const asked = askPermission(world, NOW, { sessionID: SES, action: 'bash', resources: ['npm test'] });
    expect(asked.id).toMatch(/^per_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(asked.effect).toBe('ask');
    expect(asked.events).toEqual([
      { type: 'permission.v2.asked', data: { id: asked.id, sessionID: SES, action: 'bash', resources: ['npm test'] } },
    ]);
    const source = { type: 'tool' as const, messageID: 'msg_1', callID: 'c1' };
    const full = askPermission(world, NOW, {
      sessionID: SES,
      id: 'per_given',
      action: 'edit',
      resources: ['a'],
      save: ['*'],
      metadata: { k: 1 },
      source,
    });
    expect(full.events[0]?.data).toEqual({
      id: 'per_given',
      sessionID: SES,
      action: 'edit',
      resources: ['a'],
      save: ['*'],
      metadata: { k: 1 },
      source,
    });
  });

  it("asks nothing when the project's saved permissions allow it; another project's do not", () => {
    const saved = new Map([
      ['psv_1', { id: 'psv_1', action: 'edit', resource: 'src/*' }],
      ['psv_2', { id: 'psv_2', projectID: 'other', action: 'bash', resource: '*' }],
    ]);
    const world = worldWith([], saved);
    expect(
      askPermission(world, NOW, { sessionID: SES, action: 'edit', resources: ['src/a.ts'] }, 'mine'),
    ).toMatchObject({ effect: 'allow', events: [] });
    expect(askPermission(world, NOW, { sessionID: SES, action: 'bash', resources: ['ls'] }, 'mine').effect).toBe('ask');
  });

  it('settles what the rules allow or deny at once, with nothing pending and nothing published', () => {
    const world = worldWith();
    const rules: Rule[] = [
      { action: '*', resource: '*', effect: 'allow' },
      { action: 'bash', resource: 'rm *', effect: 'deny' },
      { action: 'read', resource: '*.env', effect: 'ask' },
    ];
    const ask = (action: string, resources: string[]) =>
      askPermission(world, NOW, { sessionID: SES, action, resources, rules });
    expect(ask('bash', ['ls'])).toMatchObject({ effect: 'allow', events: [] });
    expect(ask('bash', ['rm -rf dist'])).toMatchObject({ effect: 'deny', events: [] });
    const asked = ask('read', ['.env']);
    expect(asked.effect).toBe('ask');
    expect(asked.events.map((e) => e.type)).toEqual(['permission.v2.asked']);
    // Settled requests take no room: a full partition still allows and denies.
    const full = worldWith(
      Array.from({ length: PERMISSION_LIMITS.permission }, (_, i) => request(`per_${i}`, SES, 'bash', [`c${i}`])),
    );
    expect(askPermission(full, NOW, { sessionID: SES, action: 'bash', resources: ['ls'], rules }).effect).toBe('allow');
  });
});

describe('evaluatePermission', () => {
  const HOME = '/home/dev/acme-web';
  const rulesOf = (id: string) => defaultAgents(HOME).find((a) => a.id === id)?.permissions as Rule[];

  it('takes the last rule that matches both action and resource; none matching asks', () => {
    const rules: Rule[] = [
      { action: '*', resource: '*', effect: 'deny' },
      { action: 'read', resource: '*', effect: 'allow' },
      { action: 'read', resource: '*.env', effect: 'ask' },
    ];
    expect(ruleEffect(rules, 'read', 'src/a.ts')).toBe('allow');
    expect(ruleEffect(rules, 'read', '.env')).toBe('ask');
    expect(ruleEffect(rules, 'edit', 'src/a.ts')).toBe('deny');
    expect(ruleEffect([], 'edit', 'src/a.ts')).toBe('ask');
  });

  // The exchanges seen on the real server 1.18.33 with its default agents (no configuration).
  it.each([
    ['build', 'bash', ['ls'], 'allow'],
    ['build', 'edit', ['a.txt'], 'allow'],
    ['build', 'read', ['.env'], 'ask'],
    ['build', 'read', ['a.txt', '.env'], 'ask'],
    ['build', 'question', ['*'], 'allow'],
    ['build', 'external_directory', ['/etc/*'], 'ask'],
    ['build', 'bash', [], 'allow'],
    ['plan', 'edit', ['a.txt'], 'deny'],
    ['plan', 'read', ['a.txt'], 'allow'],
    ['title', 'external_directory', ['/etc/x'], 'deny'],
  ] as const)('%s: %s %j is %s, as on the real server', (agent, action, resources, effect) => {
    expect(evaluatePermission(rulesOf(agent), [], action, resources)).toBe(effect);
  });

  it('lets a saved permission answer a resource that asks, never one the rules deny', () => {
    const saved = [{ id: 'psv_1', action: 'external_directory', resource: '/etc/x' }];
    const build = rulesOf('build');
    expect(evaluatePermission(build, saved, 'external_directory', ['/etc/x'])).toBe('allow');
    // One resource still asks: the request asks.
    expect(evaluatePermission(build, saved, 'external_directory', ['/etc/x', '/etc/y'])).toBe('ask');
    expect(evaluatePermission(rulesOf('title'), saved, 'external_directory', ['/etc/x'])).toBe('deny');
    // A deny among asks denies the request.
    expect(evaluatePermission(rulesOf('plan'), [], 'edit', ['a.txt'])).toBe('deny');
  });

  it('refuses beyond the bound of open requests, and forgets answered ones to make room', () => {
    const full = worldWith(
      Array.from({ length: PERMISSION_LIMITS.permission }, (_, i) => request(`per_${i}`, SES, 'bash', [`c${i}`])),
    );
    expect(() => askPermission(full, NOW, { sessionID: SES, action: 'bash', resources: ['x'] })).toThrow(
      SimResourceLimitError,
    );
    apply(full, [{ type: 'permission.v2.replied', data: { sessionID: SES, requestID: 'per_0', reply: 'once' } }]);
    const asked = askPermission(full, NOW, { sessionID: SES, action: 'bash', resources: ['x'] });
    apply(full, asked.events);
    expect(full.permissions.size).toBe(PERMISSION_LIMITS.permission);
    expect(full.permissions.has('per_0')).toBe(false);
    expect(full.permissions.get(asked.id)?.status).toBe('pending');
  });
});

describe('replyPermission', () => {
  const requests = () => [
    request('per_a', SES, 'external_directory', ['/etc/a'], ['/etc/*']),
    request('per_b', SES, 'external_directory', ['/etc/b', '/var/b']),
    request('per_c', OTHER, 'external_directory', ['/etc/c']),
    request('per_d', SES, 'external_directory', ['/etc/d']),
  ];

  it('once answers the one request', () => {
    const world = worldWith(requests());
    expect(replies(replyPermission(world, NOW, requests()[0]!, 'once'))).toEqual([['per_a', 'once']]);
  });

  it('reject rejects the one, then every other pending request of its session', () => {
    const world = worldWith(requests());
    expect(replies(replyPermission(world, NOW, requests()[1]!, 'reject'))).toEqual([
      ['per_b', 'reject'],
      ['per_a', 'reject'],
      ['per_d', 'reject'],
    ]);
  });

  it("always saves its patterns once and answers the project's requests they now allow, in any session", () => {
    const world = worldWith(requests());
    const drafts = replyPermission(world, NOW, requests()[0]!, 'always', 'proj');
    expect(drafts.map((d) => d.type)).toEqual([
      'permission.v2.replied',
      'permission.saved',
      'permission.v2.replied',
      'permission.v2.replied',
    ]);
    expect(drafts[1]?.data).toMatchObject({ projectID: 'proj', action: 'external_directory', resource: '/etc/*' });
    expect((drafts[1]?.data as { id: string }).id).toMatch(/^psv_/);
    // per_b has /var/b, which no pattern allows.
    expect(replies(drafts)).toEqual([
      ['per_a', 'always'],
      ['per_c', 'always'],
      ['per_d', 'always'],
    ]);
    apply(world, drafts);
    expect([...world.permissions.values()].map((p) => [p.record.id, p.status])).toEqual([
      ['per_a', 'allowed'],
      ['per_b', 'pending'],
      ['per_c', 'allowed'],
      ['per_d', 'allowed'],
    ]);
    // A pattern already saved is not saved twice.
    const again = request('per_e', SES, 'external_directory', ['/x'], ['/etc/*', '/x']);
    world.permissions.set('per_e', { record: again, status: 'pending' });
    const second = replyPermission(world, NOW, again, 'always', 'proj').filter((d) => d.type === 'permission.saved');
    expect(second.map((d) => (d.data as { resource: string }).resource)).toEqual(['/x']);
  });

  it('refuses to save beyond the bound of saved permissions', () => {
    const saved = new Map(
      Array.from({ length: PERMISSION_LIMITS.savedPermission }, (_, i) => [
        `psv_${i}`,
        { id: `psv_${i}`, action: 'read', resource: `f${i}` },
      ]),
    );
    const world = worldWith(requests(), saved);
    expect(() => replyPermission(world, NOW, requests()[0]!, 'always')).toThrow(SimResourceLimitError);
  });
});
