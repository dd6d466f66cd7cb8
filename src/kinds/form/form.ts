/**
 * Form lifecycles: pending forms listed per location, replies checked against the form's fields, a valid
 * reply settles the form, a second one is refused; forms appear and are cancelled at scripted times.
 */
import { FormAlreadySettledError, FormInvalidAnswerError, FormNotFoundError } from './errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { undeclared } from '../../text/closest.js';
import { answered, changeState, NO_CONTENT, reportDuplicates } from '../answers.js';
import type { Kind } from '../kind.js';
import { checkFormAnswer, type FormDefinitionFields } from './form-answer.js';
import { condition, format } from './format.js';
import type { FormSection } from './section.generated.js';
import type { FormDefinition, FormState, FormStatus } from './types.js';

function formOf(world: World, id: string): FormState | undefined {
  return world.forms.get(id);
}

const STATES: readonly FormStatus[] = ['scheduled', 'pending', 'answered', 'cancelled'];

export const form: Kind<FormSection> = {
  name: 'form',
  format,
  notFound: { param: 'formID', error: (id) => new FormNotFoundError(id) },
  badInput: {
    tag: 'FormInvalidAnswerError',
    error: (message, path) => new FormInvalidAnswerError(path.formID ?? '', message),
  },
  condition,
  states: STATES,
  transitions: [
    ['scheduled', 'pending'],
    ['pending', 'answered'],
    ['pending', 'cancelled'],
  ],

  read(source, context) {
    const sessions = context.declared('session');
    const forms = (source.forms ?? []).map((f, i): FormDefinition => {
      const { appears, cancelled, ...record } = f;
      if (!sessions.has(f.sessionID))
        context.problem(['forms', i, 'sessionID'], undeclared('session', f.sessionID, 'sessions', sessions));
      // Each field on its own, so a problem is reported at the field and only for the field's own type.
      const fields: unknown[] = Array.isArray(record.fields) ? record.fields : [];
      fields.forEach((field, j) =>
        context.checkRecord('FormField', field, ['forms', i, 'fields', j], `form ${f.id} field ${j + 1}`),
      );
      context.checkRecord('FormRequest', record, ['forms', i], `form ${f.id}`, (d) => /^fields\.\d/.test(d.path));
      return {
        record,
        appears: appears === undefined ? context.start : context.after(appears),
        cancelled: cancelled === undefined ? undefined : context.after(cancelled),
      };
    });
    reportDuplicates(
      forms.map((f) => f.record.id),
      'forms',
      'form',
      context,
    );
    return { forms };
  },

  ids: (scenario) => scenario.forms.map((f) => f.record.id),

  possible: (scenario) =>
    scenario.forms.flatMap((f) => [
      ...(f.appears > scenario.start ? [{ id: f.record.id, from: 'scheduled', to: 'pending' }] : []),
      { id: f.record.id, from: 'pending', to: 'answered' },
      ...(f.cancelled !== undefined ? [{ id: f.record.id, from: 'pending', to: 'cancelled' }] : []),
    ]),

  seed: ({ forms, start }) => ({
    forms: new Map(
      forms.map((definition): [string, FormState] => {
        const status =
          definition.cancelled !== undefined && definition.cancelled <= start
            ? 'cancelled'
            : definition.appears <= start
              ? 'pending'
              : 'scheduled';
        return [definition.record.id, { definition, status }];
      }),
    ),
  }),

  stateOf: (world, id) => world.forms.get(id)?.status,

  snapshot: (world) => ({
    forms: [...world.forms.values()].map((f) => ({
      id: f.definition.record.id,
      sessionID: f.definition.record.sessionID,
      state: f.status,
      ...(f.answer ? { answer: f.answer } : {}),
    })),
  }),

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
      const state = formOf(world, formID);
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
    'form.created': (world, { data }) => changeState('form', data.form.id, formOf(world, data.form.id), 'pending'),
    'form.replied': (world, { data }) =>
      changeState('form', data.id, formOf(world, data.id), 'answered', { answer: data.answer }),
    'form.cancelled': (world, { data }) => changeState('form', data.id, formOf(world, data.id), 'cancelled'),
  },

  schedule: {
    ids: (world) => world.forms.keys(),
    next(world, id) {
      const state = formOf(world, id);
      if (state?.status === 'scheduled') return state.definition.appears;
      if (state?.status === 'pending') return state.definition.cancelled;
      return undefined;
    },
    fire(world, id, now) {
      const state = formOf(world, id);
      if (!state) return [];
      const { record, appears, cancelled } = state.definition;
      if (state.status === 'scheduled' && appears <= now) return [draft('form.created', { form: record })];
      if (state.status === 'pending' && cancelled !== undefined && cancelled <= now)
        return [draft('form.cancelled', { id: record.id, sessionID: record.sessionID })];
      return [];
    },
  },

  // form.created, form.replied and form.cancelled are published as they are: the real server's newer code line
  // (the one the interface describes) announces forms with these, though the official client does not type them.

  infer: () => import('./infer.js').then((m) => m.inferForms),
};
