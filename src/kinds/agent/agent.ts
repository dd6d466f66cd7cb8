/**
 * The agents (`GET /api/agent`): the scenario's, or the real server's defaults, with their permission rules
 * made for the location asked about (they name the user's home and the location's plans). Sessions start
 * with build and switch to others by name, so a scenario that lists its own agents must list those.
 */
import { absoluteDirectory } from '../location.js';
import { resolveLocation } from '../../openapi/location.js';
import type { Scenario } from '../../format/scenario-types.js';
import { answered, locationAnswer, reportDuplicates } from '../answers.js';
import type { JsonObject, Kind, ReadContext } from '../kind.js';
import { baseRules, defaultAgents, type Rule } from './defaults.js';
import { format } from './format.js';
import type { AgentSection } from './section.generated.js';
import type { World } from '../../state/world.js';

/** The agent a session starts with (src/kinds/session/state.ts). */
const SESSION_AGENT = 'build';

export const agent: Kind<AgentSection, Pick<Scenario, 'sessions'>> = {
  name: 'agent',
  format,

  read(source, context) {
    if (source.agents === undefined) return {};
    const agents = source.agents.map((raw, i) => {
      const record: JsonObject & { id: string } = {
        request: { headers: {}, body: {} },
        mode: 'all',
        hidden: false,
        ...raw,
      };
      // The rules an agent takes by default name paths of the location, so they are checked as made for one.
      const served =
        record.permissions === undefined ? { ...record, permissions: baseRules('/home/dev/project') } : record;
      context.checkRecord('AgentV2Info', served, ['agents', i], `agent ${record.id}`);
      return record;
    });
    reportDuplicates(
      agents.map((a) => a.id),
      'agents',
      'agent',
      context,
    );
    checkSessionAgents(source, new Set(agents.map((a) => a.id)), context);
    return { agents };
  },

  handlers: {
    'v2.agent.list': (request, context) => {
      const directory = absoluteDirectory(context.project, resolveLocation(context.project, request.query.location));
      return answered(locationAnswer(request, context, listedAgents(context.world, directory)));
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferAgents),
};

/** The agents as listed for a location: the scenario's (the base rules where they name none), else the defaults. */
function listedAgents(world: World, directory: string): JsonObject[] {
  const { agents } = world.scenario;
  return agents
    ? agents.map((a) => (a.permissions === undefined ? { ...a, permissions: baseRules(directory) } : a))
    : defaultAgents(directory);
}

/**
 * The permission rules of the agent named, as listed for the location; an agent nobody lists denies
 * everything, as the real server answers `deny` for an unknown agent.
 */
export function agentRules(world: World, directory: string, name: string): readonly Rule[] {
  const found = listedAgents(world, directory).find((a) => a.id === name);
  return Array.isArray(found?.permissions)
    ? (found.permissions as Rule[])
    : [{ action: '*', resource: '*', effect: 'deny' }];
}

/** Every agent the scenario's sessions use (build, and those their messages switch to) must be listed. */
function checkSessionAgents(
  source: Pick<Scenario, 'sessions'>,
  listed: ReadonlySet<string>,
  context: ReadContext,
): void {
  const sessions = source.sessions ?? [];
  if (!sessions.length) return;
  const used = new Set([SESSION_AGENT]);
  for (const session of sessions) {
    for (const message of session.messages ?? []) {
      if (message.type === 'agent-switched' && typeof message.agent === 'string') used.add(message.agent);
    }
  }
  for (const id of used) {
    if (!listed.has(id)) context.problem(['agents'], `lists no agent ${id}, which a session of the scenario uses`);
  }
}
