import { beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../../src/kinds/api-errors.js';
import { ProjectCopyError } from '../../../src/kinds/project-copy/errors.js';
import { SessionNotFoundError } from '../../../src/kinds/session/errors.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const samples: Record<string, unknown[]> = {
  InvalidRequestError: ['Missing key', 'Payload', 'text'],
  InvalidCursorError: ['Invalid cursor'],
  FormInvalidAnswerError: ['frm_1', 'Missing required form field: name'],
  ConflictError: ['msg_1', 'Session input already exists: msg_1'],
  ServiceUnavailableError: ['model.catalog', 'Model catalog initialization timed out'],
  UnknownError: ['err_0123abcd'],
  MessageNotFoundError: ['ses_1', 'msg_1'],
};

describe('API error registry', () => {
  it.each(Object.entries(API_ERRORS))(
    '%s has _tag equal to its class name and the status the spec declares',
    (name, ErrorClass) => {
      const error = new (ErrorClass as new (...args: unknown[]) => InstanceType<typeof ErrorClass>)(
        ...(samples[name] ?? ['x_1']),
      );
      expect(error._tag).toBe(name);
      expect(error.constructor.name).toBe(name);
      const statuses = new Set(
        spec.operations.flatMap((op) =>
          [...op.responses.values()].filter((r) => r.tags.includes(name)).map((r) => r.status),
        ),
      );
      expect([...statuses]).toEqual([error.status]);
    },
  );

  it('covers every error the spec declares', () => {
    const declared = new Set(spec.operations.flatMap((op) => [...op.declaredTags]));
    expect([...declared].sort()).toEqual(Object.keys(API_ERRORS).sort());
  });

  it('omits absent optional fields instead of sending null', () => {
    expect(new API_ERRORS.InvalidRequestError('Bad').toBody()).toEqual({ _tag: 'InvalidRequestError', message: 'Bad' });
  });

  it('writes ProjectCopyError in its own {name, data} shape', () => {
    expect(new ProjectCopyError('Project copy strategy unavailable: x').toBody()).toEqual({
      name: 'ProjectCopyError',
      data: { message: 'Project copy strategy unavailable: x', forceRequired: false },
    });
  });

  it('words not-found errors like the real server', () => {
    expect(new SessionNotFoundError('ses_x').toBody()).toEqual({
      _tag: 'SessionNotFoundError',
      sessionID: 'ses_x',
      message: 'Session not found: ses_x',
    });
  });
});
