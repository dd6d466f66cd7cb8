/** The experimental features on (`GET /experimental/capabilities`): none unless the scenario turns them on. */
import { jsonAnswer } from '../../exchange/exchange.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { format } from './format.js';
import type { CapabilitySection } from './section.generated.js';

export const capability: Kind<CapabilitySection> = {
  name: 'capability',
  format,

  read: (source) => ({
    capabilities: { backgroundSubagents: false, ...source.capabilities },
  }),

  handlers: {
    'experimental.capabilities.get': (_request, { world }) => answered(jsonAnswer(200, world.scenario.capabilities)),
  },

  infer: () => import('./infer.js').then((m) => m.inferCapabilities),
};
