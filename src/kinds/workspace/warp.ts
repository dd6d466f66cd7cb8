/**
 * What the event stream says of workspaces: a workspace's connection status as it changes (the real server
 * publishes `workspace.status`); a session warped in or out is a session record changed, `session.updated`
 * with its `workspaceID`. Registration and removal are announced by nothing the client knows.
 */
import { clientSession } from '../session/info.js';
import type { Publication } from '../kind.js';

export const warpPublication: Publication = {
  internal: ['workspace.created', 'workspace.removed', 'workspace.session.warped'],
  follow: {
    'workspace.session.warped': ({ data, time }, { world, directory, projectID }) => {
      const session = world?.sessions.get(data.sessionID);
      if (!world || !session) return [];
      const info = clientSession(world, session, { directory, id: projectID ?? 'global' }, time);
      const { workspaceID } = data;
      return [
        {
          type: 'session.updated',
          data: { sessionID: data.sessionID, info: workspaceID ? { ...info, workspaceID } : info },
        },
      ];
    },
  },
};
