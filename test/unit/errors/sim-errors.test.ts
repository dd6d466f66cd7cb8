/**
 * Every refusal of the simulator is a SimulatorError carrying `tag`, `hint` and `problems`, whether it is
 * thrown in this process or rebuilt by a handle from the control API's answer.
 */
import { describe, expect, it } from 'vitest';
import * as simErrors from '../../../src/errors/sim-errors.js';
import {
  SIM_ERRORS,
  SimConfigError,
  SimRuleError,
  SimScenarioNotFoundError,
  SimulatorError,
} from '../../../src/errors/sim-errors.js';

const classes = Object.entries(simErrors).filter(
  ([, value]) => typeof value === 'function' && value.prototype instanceof SimulatorError,
);

describe('SimulatorError', () => {
  it('is the class of every Sim… error, and SIM_ERRORS lists each by its tag', () => {
    expect(classes.length).toBeGreaterThan(20);
    // SimNoWebSocketError is answered as a SimRouteNotFoundError, so it is rebuilt as one.
    const rebuilt = classes.filter(([name]) => name !== 'SimNoWebSocketError');
    expect(Object.keys(SIM_ERRORS).sort()).toEqual(rebuilt.map(([name]) => name).sort());
    for (const [name, Class] of rebuilt) expect(SIM_ERRORS[name as keyof typeof SIM_ERRORS]).toBe(Class);
  });

  it('carries tag, hint and problems (an empty list when there are none), and is named by its class', () => {
    const missing = new SimScenarioNotFoundError('nope', ['default'], undefined, ['/srv/scenarios/']);
    expect(missing).toBeInstanceOf(SimulatorError);
    expect(missing).toBeInstanceOf(Error);
    expect([missing.tag, missing.status, missing.name]).toEqual([
      'SimScenarioNotFoundError',
      404,
      'SimScenarioNotFoundError',
    ]);
    expect(missing.message).toBe('No scenario "nope" (looked in /srv/scenarios/).');
    expect(missing.hint).toBe('Available: default; or give a path to a .yaml file');
    expect(missing.problems).toEqual([]);
    expect(missing.toBody()).toMatchObject({ _tag: 'SimScenarioNotFoundError', lookedIn: ['/srv/scenarios/'] });
    const rule = new SimRuleError(['when.operation: no operation v2.nope']);
    expect(rule.problems).toEqual(['when.operation: no operation v2.nope']);
  });

  it('is what SimConfigError has become: a SimConfigError with a hint', () => {
    const refused = new SimConfigError('port must be an integer from 0 to 65535, got -1');
    expect(refused).toBeInstanceOf(SimConfigError);
    expect(refused).toBeInstanceOf(SimulatorError);
    expect(refused.tag).toBe('SimConfigError');
    expect(refused.hint).toMatch(/SimOptions/);
  });

  it("rebuilds a control API's refusal as its own class, with the answer's fields", () => {
    const body = {
      _tag: 'SimRuleError',
      message: 'The rule cannot be added: x',
      problems: ['x'],
      hint: 'A rule has the shape of a scenario rule',
    };
    const error = SimulatorError.fromAnswer(400, body, 'POST /rules answered 400');
    expect(error).toBeInstanceOf(SimRuleError);
    expect([error.tag, error.status, error.name, error.hint, error.problems]).toEqual([
      'SimRuleError',
      400,
      'SimRuleError',
      'A rule has the shape of a scenario rule',
      ['x'],
    ]);
    // The hint is in the message too: over HTTP it is all the caller learns of how to fix it.
    expect(error.message).toBe('The rule cannot be added: x (A rule has the shape of a scenario rule)');
    expect(error.toBody()).toEqual(body);
  });

  it('rebuilds a tag this package does not know (a newer simulator) as a SimulatorError with that tag', () => {
    const error = SimulatorError.fromAnswer(418, { _tag: 'SimTeapotError' }, 'GET /state answered 418');
    expect(error).toBeInstanceOf(SimulatorError);
    expect([error.tag, error.status, error.message, error.hint, error.problems]).toEqual([
      'SimTeapotError',
      418,
      'GET /state answered 418',
      undefined,
      [],
    ]);
  });
});
