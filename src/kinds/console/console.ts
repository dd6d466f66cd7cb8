/**
 * The Console (`GET /experimental/console`, `/experimental/console/orgs`, `POST /experimental/console/switch`):
 * the orgs of the logged-in accounts, and the active one, whose name and managed providers the console
 * state shows. Switching persists the choice; the real server announces nothing.
 */
import { InvalidRequestError } from '../../errors/errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { format } from './format.js';
import type { ConsoleSection } from './section.generated.js';
import type { ConsoleChoice, ConsoleOrg } from './types.js';

const same = (org: ConsoleChoice, choice: ConsoleChoice | undefined) =>
  choice !== undefined && org.accountID === choice.accountID && org.orgID === choice.orgID;

const activeOrg = (world: World) => world.scenario.console.orgs.find((org) => same(org, world.console.active));

export const consoleKind: Kind<ConsoleSection> = {
  name: 'console',
  format,

  read(source, context) {
    const raw = source.console?.orgs ?? [];
    const orgs = raw.map((org): ConsoleOrg => ({
      accountID: org.accountID,
      accountEmail: org.accountEmail,
      accountUrl: org.accountUrl,
      orgID: org.orgID,
      orgName: org.orgName,
      providers: org.providers ?? [],
    }));
    const active = raw.flatMap((org, i) => (org.active ? [i] : []));
    for (const i of active.slice(1))
      context.problem(['console', 'orgs', i, 'active'], 'only one org can be the active one');
    orgs.forEach((org, i) => {
      if (orgs.findIndex((o) => same(o, org)) < i)
        context.problem(
          ['console', 'orgs', i, 'orgID'],
          `org ${org.orgID} of account ${org.accountID} is declared twice`,
        );
    });
    const first = active[0] === undefined ? undefined : orgs[active[0]];
    return { console: { orgs, ...(first ? { active: { accountID: first.accountID, orgID: first.orgID } } : {}) } };
  },

  seed: (scenario) => ({ console: scenario.console.active ? { active: { ...scenario.console.active } } : {} }),

  snapshot: (world) => ({ console: { active: world.console.active ?? null } }),

  handlers: {
    'experimental.console.get': (_request, { world }) => {
      const org = activeOrg(world);
      return answered(
        jsonAnswer(200, {
          consoleManagedProviders: org ? [...org.providers] : [],
          ...(org ? { activeOrgName: org.orgName } : {}),
          switchableOrgCount: world.scenario.console.orgs.length,
        }),
      );
    },
    'experimental.console.listOrgs': (_request, { world }) =>
      answered(
        jsonAnswer(200, {
          orgs: world.scenario.console.orgs.map((org) => ({
            accountID: org.accountID,
            accountEmail: org.accountEmail,
            accountUrl: org.accountUrl,
            orgID: org.orgID,
            orgName: org.orgName,
            active: same(org, world.console.active),
          })),
        }),
      ),
    'experimental.console.switchOrg': (request, { world }) => {
      const { accountID, orgID } = request.body as ConsoleChoice;
      const org = world.scenario.console.orgs.find((o) => same(o, { accountID, orgID }));
      if (!org)
        throw new InvalidRequestError(`Console org not found: ${orgID} of account ${accountID}`, 'Payload', 'orgID');
      if (same(org, world.console.active)) return answered(jsonAnswer(200, true));
      return answered(jsonAnswer(200, true), draft('console.org.switched', { accountID, orgID }));
    },
  },

  appliers: {
    'console.org.switched': (world, { data }) => {
      world.console.active = { accountID: data.accountID, orgID: data.orgID };
    },
  },

  publication: { internal: ['console.org.switched'] },

  infer: () => import('./infer.js').then((m) => m.inferConsole),
};
