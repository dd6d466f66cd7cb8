/** The commands (`GET /api/command`): the scenario's, or the real server's defaults. */
import { answered, locationAnswer } from '../answers.js';
import type { Kind } from '../kind.js';
import { DEFAULT_COMMANDS } from './defaults.js';
import { format } from './format.js';
import type { CommandSection } from './section.generated.js';

export const command: Kind<CommandSection> = {
  name: 'command',
  format,

  read(source, context) {
    if (source.commands === undefined) return {};
    const commands = source.commands;
    commands.forEach((c, i) => context.checkRecord('CommandV2Info', c, ['commands', i], `command ${String(c.name)}`));
    const seen = new Set<unknown>();
    commands.forEach((c, i) => {
      if (seen.has(c.name)) context.problem(['commands', i, 'name'], `command ${String(c.name)} is declared twice`);
      seen.add(c.name);
    });
    return { commands };
  },

  handlers: {
    'v2.command.list': (request, context) =>
      answered(locationAnswer(request, context, context.world.scenario.commands ?? DEFAULT_COMMANDS)),
  },

  infer: () => import('./infer.js').then((m) => m.inferCommands),
};
