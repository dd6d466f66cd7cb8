/**
 * What the event stream says of workspaces: a workspace's connection status as it changes (the real server
 * publishes `workspace.status`); a session warped in or out is a session record changed, `session.updated`
 * with its `workspaceID`. Registration and removal are announced by nothing the client knows.
 */
import { sessionInfo } from '../session/publication.js';
import type { Publication } from '../kind.js';

export const warpPublication: Publication = {
  internal: ['workspace.created', 'workspace.removed', 'workspace.session.warped'],
  follow: {
    'workspace.session.warped': ({ data, time }, { world, directory, projectID }) => {
      const info = world && sessionInfo(world, data.sessionID, time, { directory, projectID: projectID ?? 'global' });
      if (!info) return [];
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
