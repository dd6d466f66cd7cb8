import { describe, expect, it } from 'vitest';
import { compareAnswers, createCorrespondence, translate } from '../../../src/derive/compare.js';
import { formatDuration, instant } from '../../../src/derive/parts.js';

const options = { toleranceMs: 1000 };
const cursor = (id: string) =>
  Buffer.from(JSON.stringify({ id, order: 'desc', direction: 'next' })).toString('base64url');
const REC = 'msg_2095bf40d001amRCENL3peQz8K';
const SIM = 'msg_203a52106001tZWYWeFGLbY095';

describe('comparing a recorded answer with a scenario answer', () => {
  it('pairs minted ids once, holds later occurrences to the pairing, and translates them into later requests', () => {
    const ids = createCorrespondence();
    expect(
      compareAnswers(
        { status: 200, body: { data: [{ id: REC }], cursor: { next: cursor(REC) } } },
        { status: 200, body: { data: [{ id: SIM }], cursor: { next: cursor(SIM) } } },
        ids,
        options,
      ),
    ).toBeUndefined();
    expect(translate({ cursor: cursor(REC), path: `/x/${REC}` }, ids)).toEqual({
      cursor: cursor(SIM),
      path: `/x/${SIM}`,
    });
    const other = 'msg_203a52106002tZWYWeFGLbY096';
    expect(
      compareAnswers({ status: 200, body: { id: REC } }, { status: 200, body: { id: other } }, ids, options),
    ).toEqual({ field: 'id', recorded: REC, scenario: other });
    expect(
      compareAnswers(
        { status: 404, body: { _tag: 'MessageNotFoundError', message: `Message not found: ${REC}` } },
        { status: 404, body: { _tag: 'MessageNotFoundError', message: `Message not found: ${SIM}` } },
        ids,
        options,
      ),
    ).toBeUndefined();
  });

  it('names the first departure: status, then _tag, then the field', () => {
    const ids = createCorrespondence();
    expect(
      compareAnswers(
        { status: 204, body: undefined },
        { status: 404, body: { _tag: 'SessionNotFoundError' } },
        ids,
        options,
      ),
    ).toEqual({ field: 'status', recorded: 204, scenario: 404 });
    expect(
      compareAnswers(
        { status: 409, body: { _tag: 'SessionBusyError' } },
        { status: 409, body: { _tag: 'ConflictError' } },
        ids,
        options,
      )?.field,
    ).toBe('_tag');
    expect(
      compareAnswers(
        { status: 200, body: { data: [{ name: 'a' }, { name: 'b' }] } },
        { status: 200, body: { data: [{ name: 'a' }, { name: 'c' }] } },
        ids,
        options,
      ),
    ).toEqual({ field: 'data[1].name', recorded: 'b', scenario: 'c' });
    expect(
      compareAnswers({ status: 200, body: { data: [1, 2] } }, { status: 200, body: { data: [1] } }, ids, options)
        ?.field,
    ).toBe('data.length');
    expect(
      compareAnswers(
        { status: 200, body: { data: { effect: 'allow' } } },
        { status: 200, body: { data: {} } },
        ids,
        options,
      ),
    ).toEqual({ field: 'data.effect', recorded: 'allow', scenario: undefined });
  });

  it('counts instants within the tolerance and process ids as any integer, nothing else', () => {
    const ids = createCorrespondence();
    expect(
      compareAnswers(
        { status: 200, body: { time: { created: 1000 }, pid: 17 } },
        { status: 200, body: { time: { created: 1900 }, pid: 7400 } },
        ids,
        options,
      ),
    ).toBeUndefined();
    expect(
      compareAnswers(
        { status: 200, body: { time: { created: 1000 } } },
        { status: 200, body: { time: { created: 2500 } } },
        ids,
        options,
      )?.field,
    ).toBe('time.created');
    expect(
      compareAnswers({ status: 200, body: { admittedSeq: 1 } }, { status: 200, body: { admittedSeq: 2 } }, ids, options)
        ?.field,
    ).toBe('admittedSeq');
  });

  it('holds InvalidRequestError to its kind, not the wording', () => {
    const ids = createCorrespondence();
    const recorded = {
      status: 400,
      body: {
        _tag: 'InvalidRequestError',
        message: 'Expected a string starting with "msg_", got "bad"\n  at ["messageID"]',
        kind: 'Payload',
      },
    };
    expect(
      compareAnswers(
        recorded,
        {
          status: 400,
          body: {
            _tag: 'InvalidRequestError',
            message: 'Body field "messageID" must match',
            kind: 'Payload',
            field: 'messageID',
          },
        },
        ids,
        options,
      ),
    ).toBeUndefined();
    expect(
      compareAnswers(
        recorded,
        { status: 400, body: { _tag: 'InvalidRequestError', message: 'x', kind: 'Query' } },
        ids,
        options,
      )?.field,
    ).toBe('kind');
  });
});

describe('how a generated scenario writes time', () => {
  it('durations exact to the millisecond, instants before the start as date-times', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(63_425)).toBe('1m3s425ms');
    expect(formatDuration(3_600_000 + 5)).toBe('1h5ms');
    expect(instant(10_500, 10_000)).toBe('500ms');
    expect(instant(9_000, 10_000)).toBe('1970-01-01T00:00:09.000Z');
  });
});
