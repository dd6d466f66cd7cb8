/**
 * A scenario's `permissions:` read into definitions: pending requests (each checked against the spec's
 * PermissionV2Request and naming a declared session) and saved permissions.
 */
import type { Path } from '../kind.js';
import { createIds, createRandom } from '../../state/random.js';
import { undeclared } from '../../text/closest.js';
import type { ReadContext } from '../kind.js';
import type { PermissionSection } from './section.generated.js';
import type { PermissionRequestDefinition, PermissionsDefinition, SavedPermission } from './types.js';

export function readPermissions(source: PermissionSection, context: ReadContext): PermissionsDefinition {
  const sessions = context.declared('session');
  const section = source.permissions ?? {};
  const requests = (section.requests ?? []).map((r, i): PermissionRequestDefinition => {
    const { appears, ...record } = r;
    const path: Path = ['permissions', 'requests', i];
    const sessionID = record.sessionID;
    if (!sessions.has(sessionID))
      context.problem([...path, 'sessionID'], undeclared('session', sessionID, 'sessions', sessions));
    context.checkRecord('PermissionV2Request', record, path, `permission request ${record.id}`);
    return {
      record,
      appears: appears === undefined ? context.start : context.after(appears),
    };
  });
  const saved = (section.saved ?? []).map((s, i): SavedPermission => {
    const { action, resource } = s;
    // Not from the scenario's id stream: a saved permission without an id must not shift the ids of the kinds after it.
    const id = s.id ?? createIds(createRandom(`${action}:${resource}:${i}`)).ascending('psv_', context.start);
    return { id, ...(s.projectID === undefined ? {} : { projectID: s.projectID }), action, resource };
  });
  reportTwice(
    requests.map((r) => r.record.id),
    'requests',
    'permission request',
    context,
  );
  reportTwice(
    saved.map((s) => s.id),
    'saved',
    'saved permission',
    context,
  );
  return { requests, saved };
}

function reportTwice(ids: readonly string[], list: string, noun: string, context: ReadContext): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) context.problem(['permissions', list, index, 'id'], `${noun} ${id} is declared twice`);
    seen.add(id);
  });
}
