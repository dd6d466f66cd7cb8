/**
 * Form lifecycles: pending forms listed per location, replies checked against the form's fields, a valid
 * reply settles the form, a second one is refused; forms can appear or be cancelled at scripted times.
 */
import { FormAlreadySettledError, FormInvalidAnswerError, FormNotFoundError } from '../errors.js';
import { resolveLocation } from '../spec/location.js';
import { checkFormAnswer, type FormDefinitionFields } from './form-answer.js';
import type { Handlers } from './handler.js';

export const formHandlers: Handlers = {
  'v2.form.request.list': (request, { world, now, project }) => {
    const location = resolveLocation(project, request.query.location);
    // Forms live in the project's own location; another directory has none pending.
    const here = location.directory === project.directory;
    const data = here ? [...world.forms.values()].filter((f) => world.formStatus(f, now) === 'pending').map((f) => f.definition.record) : [];
    return { status: 200, body: { location, data } };
  },

  'v2.session.form.reply': (request, { world, now }) => {
    const formID = request.pathParams.formID ?? '';
    const form = world.forms.get(formID);
    const status = form ? world.formStatus(form, now) : 'scheduled';
    // Another session's form, or one not asked yet, does not exist as far as this caller can tell.
    if (!form || status === 'scheduled' || form.definition.record.sessionID !== request.pathParams.sessionID) throw new FormNotFoundError(formID);
    if (status !== 'pending') throw new FormAlreadySettledError(formID);
    const answer = (request.body as { answer: Record<string, unknown> }).answer;
    if (form.definition.record.mode === 'form') {
      const problem = checkFormAnswer(form.definition.record as unknown as FormDefinitionFields, answer);
      if (problem) throw new FormInvalidAnswerError(formID, problem);
    }
    form.answered = { at: now, answer };
    return { status: 204 };
  },
};
