/**
 * Plugins loaded (`GET /api/plugin`), by the ids the scenario lists; none listed leaves the answer to the
 * spec's examples.
 */
import { answered, locationAnswer } from '../answers.js';
import type { Kind } from '../kind.js';
import { format } from './format.js';
import type { PluginSection } from './section.generated.js';

export const plugin: Kind<PluginSection> = {
  name: 'plugin',
  format,

  read: (source) => ({ plugins: source.plugins ?? [] }),

  handlers: {
    'v2.plugin.list': (request, context) => {
      const { plugins } = context.world.scenario;
      if (plugins.length === 0) return undefined;
      return answered(
        locationAnswer(
          request,
          context,
          plugins.map((id) => ({ id })),
        ),
      );
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferPlugins),
};
