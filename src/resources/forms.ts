/**
 * Form lifecycles: pending forms listed per location, replies checked against the form's fields, a valid
 * reply settles the form, a second one is refused; forms appear and are cancelled at scripted times.
 */
import { FormAlreadySettledError, FormInvalidAnswerError, FormNotFoundError } from '../errors.js';
import { jsonAnswer } from '../exchange/exchange.js';
import { resolveLocation } from '../openapi/location.js';
import { draft } from '../state/events.js';
import type { FormState, World } from '../state/world.js';
import { checkFormAnswer, type FormDefinitionFields } from './form-answer.js';
import { answered, changeState, NO_CONTENT, type ResourceModule } from './resource.js';

function form(world: World, id: string): FormState | undefined {
  return world.forms.get(id);
}

export const forms: ResourceModule = {
  handlers: {
    'v2.form.request.list': (request, { world, project }) => {
      const location = resolveLocation(project, request.query.location);
      // Forms live in the project's own location; another directory has none pending.
      const here = location.directory === project.directory;
      const data = here
        ? [...world.forms.values()].filter((f) => f.status === 'pending').map((f) => f.definition.record)
        : [];
      return answered(jsonAnswer(200, { location, data }));
    },

    'v2.session.form.reply': (request, { world }) => {
      const formID = request.pathParams.formID ?? '';
      const state = form(world, formID);
      // Another session's form, or one not asked yet, does not exist as far as this caller can tell.
      if (!state || state.status === 'scheduled' || state.definition.record.sessionID !== request.pathParams.sessionID)
        throw new FormNotFoundError(formID);
      if (state.status !== 'pending') throw new FormAlreadySettledError(formID);
      const answer = (request.body as { answer: Record<string, unknown> }).answer;
      if (state.definition.record.mode === 'form') {
        const problem = checkFormAnswer(state.definition.record as unknown as FormDefinitionFields, answer);
        if (problem) throw new FormInvalidAnswerError(formID, problem);
      }
      return answered(
        NO_CONTENT,
        draft('form.replied', { id: formID, sessionID: state.definition.record.sessionID, answer }),
      );
    },
  },

  appliers: {
    'form.created': (world, { data }) => changeState('form', data.form.id, form(world, data.form.id), 'pending'),
    'form.replied': (world, { data }) =>
      changeState('form', data.id, form(world, data.id), 'answered', { answer: data.answer }),
    'form.cancelled': (world, { data }) => changeState('form', data.id, form(world, data.id), 'cancelled'),
  },

  timeline: {
    kind: 'form',
    ids: (world) => world.forms.keys(),
    next(world, id) {
      const state = form(world, id);
      if (state?.status === 'scheduled') return state.definition.appears;
      if (state?.status === 'pending') return state.definition.cancelled;
      return undefined;
    },
    fire(world, id, now) {
      const state = form(world, id);
      if (!state) return [];
      const { record, appears, cancelled } = state.definition;
      if (state.status === 'scheduled' && appears <= now) return [draft('form.created', { form: record })];
      if (state.status === 'pending' && cancelled !== undefined && cancelled <= now)
        return [draft('form.cancelled', { id: record.id, sessionID: record.sessionID })];
      return [];
    },
  },
};
