/**
 * The default model (`GET /api/model/default`), as the scenario gives it; without one the spec's example
 * answers. Sessions start with it too (the session kind reads it).
 */
import { answered, locationAnswer } from '../answers.js';
import type { Json, Kind } from '../kind.js';
import { format } from './format.js';
import { inferModel } from './infer.js';

export const model: Kind = {
  name: 'model',
  format,

  read(source, context) {
    const found = source.model as Json | undefined;
    if (found) context.checkRecord('Model', found, ['model'], 'model');
    return { model: found };
  },

  handlers: {
    'v2.model.default': (request, context) => {
      const { model } = context.world.scenario;
      return model ? answered(locationAnswer(request, context, model)) : undefined;
    },
  },

  infer: inferModel,
};
