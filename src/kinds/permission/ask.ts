/**
 * What asking for a permission and replying to one make happen, as event drafts: the handlers decide with
 * these, and a session turn can ask mid-turn with `askPermission` (the caller commits what it returns).
 */
import type { Rule } from '../agent/defaults.js';
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { ensureRoom } from '../limits.js';
import { PERMISSION_LIMITS } from './limits.js';
import type { PermissionReply, PermissionRequestRecord, PermissionState, SavedPermission } from './types.js';
import { wildcardMatch } from './wildcard.js';

export interface PermissionAsk {
  sessionID: string;
  action: string;
  resources: string[];
  /** A client-chosen id (`per…`); one is generated otherwise. */
  id?: string;
  save?: string[];
  metadata?: Record<string, unknown>;
  source?: PermissionRequestRecord['source'];
  /**
   * The asking agent's rules (`PermissionV2Ruleset`), the last that matches deciding; absent: no rule
   * matches, so every resource asks unless a saved permission allows it.
   */
  rules?: readonly Rule[];
}

export type PermissionEffect = Rule['effect'];

export interface PermissionAsked {
  id: string;
  /**
   * What the rules decided: `ask` leaves a pending request and publishes it; `allow` and `deny` settle it at
   * once, with nothing pending and nothing published.
   */
  effect: PermissionEffect;
  events: EventDraft[];
}

/** Requests that are waiting (or will be asked), the ones a partition's bound counts. */
export function openRequests(world: World): PermissionState[] {
  return [...world.permissions.values()].filter((p) => p.status === 'pending' || p.status === 'scheduled');
}

/** The pending requests of one session, or of every session when none is named, oldest first. */
export function pendingRequests(world: World, sessionID?: string): PermissionRequestRecord[] {
  return [...world.permissions.values()]
    .filter((p) => p.status === 'pending' && (sessionID === undefined || p.record.sessionID === sessionID))
    .map((p) => p.record);
}

/** A saved permission counts for the project asked about; one saved without a project is the served project's. */
function applies(saved: SavedPermission, projectID: string | undefined): boolean {
  return saved.projectID === undefined || projectID === undefined || saved.projectID === projectID;
}

/** Whether these saved permissions allow every resource of the request for its action. */
export function coveredBy(saved: readonly SavedPermission[], action: string, resources: readonly string[]): boolean {
  const patterns = saved.filter((s) => s.action === action).map((s) => s.resource);
  return patterns.length > 0 && resources.every((r) => patterns.some((p) => wildcardMatch(r, p)));
}

function savedFor(world: World, projectID: string | undefined): SavedPermission[] {
  return [...world.savedPermissions.values()].filter((s) => applies(s, projectID));
}

/** What the rules say of one action on one resource: the last rule matching both decides; none matching asks. */
export function ruleEffect(rules: readonly Rule[], action: string, resource: string): PermissionEffect {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i] as Rule;
    if (wildcardMatch(action, rule.action) && wildcardMatch(resource, rule.resource)) return rule.effect;
  }
  return 'ask';
}

/**
 * The effect of a request, as the real server evaluates it: a resource the rules deny denies it; a saved
 * permission answers a resource that asks (never one denied); any resource still asking asks; else it is
 * allowed (with no resources too).
 */
export function evaluatePermission(
  rules: readonly Rule[],
  saved: readonly SavedPermission[],
  action: string,
  resources: readonly string[],
): PermissionEffect {
  const effects = resources.map((resource) => {
    const effect = ruleEffect(rules, action, resource);
    return effect === 'ask' && coveredBy(saved, action, [resource]) ? 'allow' : effect;
  });
  if (effects.includes('deny')) return 'deny';
  return effects.includes('ask') ? 'ask' : 'allow';
}

/**
 * Asks for a permission in a session: when the agent's rules and the project's saved permissions leave it
 * asking, a pending request and its `permission.v2.asked`; allowed or denied, nothing. Throws
 * SimResourceLimitError when the partition holds its bound of open requests.
 */
export function askPermission(world: World, now: number, ask: PermissionAsk, projectID?: string): PermissionAsked {
  const id = ask.id ?? world.ids.ascending('per_', now);
  const effect = evaluatePermission(ask.rules ?? [], savedFor(world, projectID), ask.action, ask.resources);
  if (effect !== 'ask') return { id, effect, events: [] };
  ensureRoom(openRequests(world).length, PERMISSION_LIMITS.permission, 'permission request');
  const record: PermissionRequestRecord = {
    id,
    sessionID: ask.sessionID,
    action: ask.action,
    resources: [...ask.resources],
  };
  if (ask.save !== undefined) record.save = [...ask.save];
  if (ask.metadata !== undefined) record.metadata = ask.metadata;
  if (ask.source !== undefined) record.source = ask.source;
  return { id, effect, events: [draft('permission.v2.asked', record)] };
}

/**
 * A reply to a pending request, as the real server gives it: `once` answers that one; `reject` rejects it and
 * then every other pending request of its session; `always` answers it, saves each of its `save` patterns the
 * project has not saved yet, and then answers `always` every pending request of the project (any session)
 * the saved permissions now allow.
 */
export function replyPermission(
  world: World,
  now: number,
  request: PermissionRequestRecord,
  reply: PermissionReply,
  projectID?: string,
): EventDraft[] {
  // A request a turn's tool call made holds that turn: the session hears the answer too.
  const replied = (r: PermissionRequestRecord, how: PermissionReply): EventDraft[] => [
    draft('permission.v2.replied', { sessionID: r.sessionID, requestID: r.id, reply: how }),
    ...(r.source?.type === 'tool'
      ? [draft('session.turn.answered', { sessionID: r.sessionID, requestID: r.id, rejected: how === 'reject' })]
      : []),
  ];
  const others = pendingRequests(world).filter((r) => r.id !== request.id);
  const events = replied(request, reply);
  if (reply === 'reject') {
    for (const other of others) if (other.sessionID === request.sessionID) events.push(...replied(other, 'reject'));
    return events;
  }
  if (reply === 'once') return events;
  const saved = savedFor(world, projectID);
  const fresh: SavedPermission[] = [];
  for (const resource of request.save ?? []) {
    const known = [...saved, ...fresh].some((s) => s.action === request.action && s.resource === resource);
    if (known) continue;
    const id = world.ids.ascending('psv_', now);
    fresh.push({ id, ...(projectID === undefined ? {} : { projectID }), action: request.action, resource });
  }
  if (fresh.length)
    ensureRoom(world.savedPermissions.size + fresh.length - 1, PERMISSION_LIMITS.savedPermission, 'saved permission');
  events.push(...fresh.map((s) => draft('permission.saved', s)));
  const allowing = [...saved, ...fresh];
  for (const other of others)
    if (coveredBy(allowing, other.action, other.resources)) events.push(...replied(other, 'always'));
  return events;
}
