import { beforeAll, describe, expect, it } from 'vitest';
import { readPreferences } from '../../../src/layers/preferences.js';
import { loadSpec, type OperationDefinition } from '../../../src/openapi/openapi.js';
import { SimPreferenceError } from '../../../src/errors/sim-errors.js';

let shellGet: OperationDefinition;

beforeAll(async () => {
  const spec = await loadSpec();
  shellGet = spec.operations.find((o) => o.operationId === 'v2.shell.get') as OperationDefinition;
});

/** The refusal readPreferences throws for `header`, or undefined when it reads it. */
function refusal(header: string): SimPreferenceError | undefined {
  try {
    readPreferences(header, shellGet);
    return undefined;
  } catch (error) {
    if (error instanceof SimPreferenceError) return error;
    throw error;
  }
}

describe('readPreferences', () => {
  it('reads the controls, whatever their case', () => {
    expect(readPreferences('Code=404, dynamic', shellGet)).toEqual({ code: 404, dynamic: true });
    expect(readPreferences('example=timeout', shellGet)).toEqual({ example: 'timeout' });
  });

  it.each([
    ['cod=409', 'code'],
    ['exmple=x', 'example'],
    ['dynamik=true', 'dynamic'],
    ['CODES=404', 'code'],
  ])('refuses %s, a slip of a control, naming the one meant', (header, meant) => {
    const error = refusal(header);
    expect(error?.status).toBe(400);
    expect(error?.tag).toBe('SimPreferenceError');
    expect(error?.message).toContain(`Prefer: ${header.toLowerCase().split('=')[0]}`);
    expect(error?.message).toContain(`Did you mean "${meant}"?`);
    expect(error?.hint).toContain('code=STATUS, example=NAME, dynamic=true|false');
  });

  it('refuses a slip even beside a control it reads', () => {
    expect(refusal('code=404, dinamic=true')?.message).toContain('Did you mean "dynamic"?');
  });

  it.each([
    'return=minimal',
    'respond-async, wait=10',
    'handling=lenient',
    'return=representation; include="x"',
    'safe',
    'odata.maxpagesize=50',
    'count=exact',
  ])('ignores %s, a preference that is not the simulator’s', (header) => {
    expect(readPreferences(header, shellGet)).toEqual({});
  });

  it('still points a misspelt example at the examples there are', () => {
    expect(refusal('example=timout')?.message).toContain('is not an example of v2.shell.get');
  });
});
