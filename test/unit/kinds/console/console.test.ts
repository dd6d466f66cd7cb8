/**
 * The Console: the orgs a scenario lists, the active one, switching between them (no event), what the
 * scenario may not say, and scenario-from.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/hosts/app.js';
import { inferConsole } from '../../../../src/kinds/console/infer.js';
import { loadSpec, type SpecIndex } from '../../../../src/openapi/openapi.js';
import { ScenarioError } from '../../../../src/scenarios/definition.js';
import { loadScenarioObject } from '../../../../src/scenarios/load-scenario.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

type JsonObject = Record<string, unknown>;

const ACCOUNT = { accountID: 'acc_01', accountEmail: 'dev@acme.dev', accountUrl: 'https://opencode.ai' };
const ACME = { ...ACCOUNT, orgID: 'org_acme', orgName: 'Acme', active: true, providers: ['opencode', 'anthropic'] };
const LABS = { ...ACCOUNT, orgID: 'org_labs', orgName: 'Acme Labs' };

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const problemsOf = (scenario: JsonObject): string[] => {
  try {
    loadScenarioObject({ name: 'console', ...scenario }, spec);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};

describe('the console', () => {
  it('shows the active org, and switching makes another the active one', async () => {
    const app = await createApp({ scenario: { name: 'console', console: { orgs: [ACME, LABS] } }, log: () => {} });
    const get = async (operationId: string, path: string) => {
      const res = await request(app).get(path).expect(200);
      expect(specProblems(operationId, res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
      return res.body as JsonObject;
    };
    expect(await get('experimental.console.get', '/experimental/console')).toEqual({
      consoleManagedProviders: ['opencode', 'anthropic'],
      activeOrgName: 'Acme',
      switchableOrgCount: 2,
    });
    expect(await get('experimental.console.listOrgs', '/experimental/console/orgs')).toEqual({
      orgs: [
        { ...ACCOUNT, orgID: 'org_acme', orgName: 'Acme', active: true },
        { ...LABS, active: false },
      ],
    });
    const switched = await request(app)
      .post('/experimental/console/switch')
      .send({ accountID: 'acc_01', orgID: 'org_labs' });
    expect([switched.status, switched.body]).toEqual([200, true]);
    expect(await get('experimental.console.get', '/experimental/console')).toEqual({
      consoleManagedProviders: [],
      activeOrgName: 'Acme Labs',
      switchableOrgCount: 2,
    });
    expect(
      ((await get('experimental.console.listOrgs', '/experimental/console/orgs')).orgs as JsonObject[]).map(
        (o) => o.active,
      ),
    ).toEqual([false, true]);
    const state = (await request(app).get('/__sim/state')).body as JsonObject;
    expect(state.console).toEqual({ active: { accountID: 'acc_01', orgID: 'org_labs' } });
  });

  it('refuses an org it does not have with the declared 400', async () => {
    const app = await createApp({ scenario: { name: 'console', console: { orgs: [LABS] } }, log: () => {} });
    expect((await request(app).get('/experimental/console')).body).toEqual({
      consoleManagedProviders: [],
      switchableOrgCount: 1,
    });
    const res = await request(app)
      .post('/experimental/console/switch')
      .send({ accountID: 'acc_01', orgID: 'org_nope' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      _tag: 'InvalidRequestError',
      message: 'Console org not found: org_nope of account acc_01',
      kind: 'Payload',
      field: 'orgID',
    });
    expect(
      specProblems('experimental.console.switchOrg', res.status, res.body, res.headers['content-type'] as string),
    ).toEqual([]);
  });

  it('has no account by default', async () => {
    const app = await createApp({ scenario: { name: 'no-console' }, log: () => {} });
    expect((await request(app).get('/experimental/console')).body).toEqual({
      consoleManagedProviders: [],
      switchableOrgCount: 0,
    });
    expect((await request(app).get('/experimental/console/orgs')).body).toEqual({ orgs: [] });
  });

  it('takes one active org and one of each', () => {
    expect(problemsOf({ console: { orgs: [ACME, { ...ACME, orgName: 'Again' }] } })).toEqual([
      'console.orgs[1].active: only one org can be the active one',
      'console.orgs[1].orgID: org org_acme of account acc_01 is declared twice',
    ]);
  });
});

describe('inferConsole', () => {
  it('writes the orgs, the active one with the providers it manages', () => {
    const orgs = [{ ...ACCOUNT, orgID: 'org_acme', orgName: 'Acme', active: true }];
    const timeline = recorded(
      ['experimental.console.listOrgs', { orgs }],
      [
        'experimental.console.get',
        { consoleManagedProviders: ['opencode'], activeOrgName: 'Acme', switchableOrgCount: 1 },
      ],
    );
    expect(inferConsole(timeline).console?.[0]?.value).toEqual({
      orgs: [{ ...orgs[0], providers: ['opencode'] }],
    });
    expect(inferConsole(recorded(['experimental.console.listOrgs', { orgs: [] }]))).toEqual({});
  });
});
