/**
 * The oracle the property tests hold every answer to, checked on answers made up here: a property that
 * passes means something only if its oracle rejects what it must (HTML, stack traces, undeclared tags and
 * statuses, a `Sim…` tag out of its place, a polluted prototype) and accepts what the spec allows.
 */
import { describe, expect, it } from 'vitest';
import { SES } from '../support/requests.js';
import { answerProblems, pollution, routeOf, type WireAnswer, type WireRequest } from './harness.js';

function answer(status: number, body: unknown, headers: Record<string, string> = {}): WireAnswer {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    headers: { ...(text && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
    body: Buffer.from(text),
    text,
  };
}

const plugins: WireRequest = { method: 'GET', target: '/api/plugin' };
const revert: WireRequest = {
  method: 'POST',
  target: `/api/session/${SES}/revert/stage`,
  headers: [['content-type', 'application/json']],
  body: '{}',
};
const invalid = {
  _tag: 'InvalidRequestError',
  message: 'Body field "messageID" is required',
  kind: 'Payload',
  field: 'messageID',
};

describe('the oracle', () => {
  it('routes by the spec templates: literals before parameters, HEAD as GET, other methods 405', () => {
    expect(routeOf('GET', '/api/plugin')).toEqual({ kind: 'operation', operationId: 'v2.plugin.list' });
    expect(routeOf('HEAD', `/api/session/${SES}/message`)).toEqual({
      kind: 'operation',
      operationId: 'v2.session.messages',
    });
    expect(routeOf('GET', '/api/integration/attempt/x')).toEqual({
      kind: 'operation',
      operationId: 'v2.integration.attempt.status',
    });
    expect(routeOf('DELETE', '/api/plugin')).toEqual({ kind: 'method-not-allowed' });
    expect(routeOf('GET', '/api/session//message')).toEqual({ kind: 'not-found' });
    expect(routeOf('GET', '/api/fs/read/src/a.ts')).toEqual({ kind: 'operation', operationId: 'v2.fs.read' });
    expect(routeOf('GET', '/api/fs/read/')).toEqual({ kind: 'operation', operationId: 'v2.fs.read' });
    expect(routeOf('GET', '/api/fs/read')).toEqual({ kind: 'not-found' });
  });

  it('accepts a declared error and the declared 5xx a Prefer asked for', () => {
    expect(answerProblems(revert, answer(400, invalid, { 'x-sim-operation': 'v2.session.revert.stage' }))).toEqual([]);
    const asked = { ...revert, headers: [...(revert.headers ?? []), ['prefer', 'code=500'] as [string, string]] };
    const unknown = {
      _tag: 'UnknownError',
      message: 'Unexpected server error. Check server logs for details.',
      ref: 'err_0123abcd',
    };
    expect(answerProblems(asked, answer(500, unknown, { 'x-sim-operation': 'v2.session.revert.stage' }))).toEqual([]);
    expect(
      answerProblems(revert, answer(500, unknown, { 'x-sim-operation': 'v2.session.revert.stage' })).join(),
    ).toMatch(/did not ask for/);
  });

  it('rejects HTML, an empty error, a stack trace, and a body that is not JSON', () => {
    expect(
      answerProblems(
        plugins,
        answer(404, '<!DOCTYPE html><pre>Cannot GET null</pre>', { 'content-type': 'text/html' }),
      ).join(),
    ).toMatch(/content-type text\/html/);
    expect(answerProblems(plugins, answer(417, undefined)).join()).toMatch(/empty body/);
    const leaked = {
      _tag: 'InvalidRequestError',
      message: 'RangeError: x\n    at storedJson (/srv/sim/src/control/exchange-details.ts:159:21)',
    };
    expect(answerProblems(plugins, answer(400, leaked, { 'x-sim-operation': 'v2.plugin.list' })).join()).toMatch(
      /stack trace/,
    );
    expect(answerProblems(plugins, answer(200, '{"data":', { 'content-type': 'application/json' })).join()).toMatch(
      /not JSON/,
    );
  });

  it('rejects an error the operation does not declare, and a success the spec does not describe', () => {
    expect(
      answerProblems(
        plugins,
        answer(
          404,
          { _tag: 'SessionNotFoundError', sessionID: SES, message: 'x' },
          { 'x-sim-operation': 'v2.plugin.list' },
        ),
      ),
    ).not.toEqual([]);
    expect(
      answerProblems(
        plugins,
        answer(400, { ...invalid, _tag: 'InvalidCursorError' }, { 'x-sim-operation': 'v2.plugin.list' }),
      ),
    ).not.toEqual([]);
    expect(
      answerProblems(plugins, answer(200, { data: 'plugins' }, { 'x-sim-operation': 'v2.plugin.list' })),
    ).not.toEqual([]);
    expect(answerProblems(plugins, answer(302, undefined, { location: '/' })).join()).toMatch(/status 302/);
  });

  it('takes a Sim tag only where the simulator rules put it', () => {
    const notFound = { _tag: 'SimRouteNotFoundError', message: 'No operation', hint: 'x', closest: [] };
    expect(answerProblems({ method: 'GET', target: '/api/nope' }, answer(404, notFound))).toEqual([]);
    expect(answerProblems(plugins, answer(404, notFound)).join()).toMatch(/no rule of the simulator/);
    const internal = { _tag: 'SimInternalError', message: 'x', ref: 'err_0123abcd' };
    expect(answerProblems(plugins, answer(500, internal))).not.toEqual([]);
    const badName = { _tag: 'SimPartitionNameError', message: 'x', hint: 'y' };
    expect(answerProblems({ ...plugins, headers: [['x-sim-partition', 'a b']] }, answer(400, badName))).toEqual([]);
    expect(answerProblems({ ...plugins, headers: [['x-sim-partition', 'a-b']] }, answer(400, badName))).not.toEqual([]);
    const preference = { _tag: 'SimPreferenceError', message: 'x', hint: 'y' };
    expect(answerProblems({ ...plugins, headers: [['prefer', 'code=999']] }, answer(400, preference))).toEqual([]);
    expect(answerProblems(plugins, answer(400, preference))).not.toEqual([]);
  });

  it('sees a key added to a prototype, and nothing when it is gone', () => {
    expect(pollution()).toEqual([]);
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 'yes',
      configurable: true,
      enumerable: false,
      writable: true,
    });
    try {
      expect(pollution().join()).toMatch(/Object\.prototype changed: \+\[polluted\]/);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(pollution()).toEqual([]);
  });
});
