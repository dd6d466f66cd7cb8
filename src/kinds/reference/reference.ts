/**
 * References of the project's location (`GET /api/reference`), as the scenario lists them: project
 * configuration, so a directory outside the project has none.
 */
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { absoluteDirectory, within } from '../location.js';
import { format } from './format.js';
import type { ReferenceSection } from './section.generated.js';

export const reference: Kind<ReferenceSection> = {
  name: 'reference',
  format,

  read(source, context) {
    const references = (source.references ?? []).map((r, i) => {
      context.checkRecord('Reference', r, ['references', i], 'reference');
      return r;
    });
    return { references };
  },

  handlers: {
    'v2.reference.list': (request, context) => {
      const location = resolveLocation(context.project, request.query.location);
      // References are project configuration: a directory outside the project has none.
      const here = within(context.project.directory, absoluteDirectory(context.project, location));
      return answered(jsonAnswer(200, { location, data: here ? context.world.scenario.references : [] }));
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferReferences),
};
