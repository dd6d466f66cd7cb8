/**
 * Partitions over a real socket: two test workers sharing one simulator, one addressing its partition by the
 * X-Sim-Partition header and the other by the /__partition/NAME prefix, never see each other's forms, clocks
 * or rules; run-time faults and the refusals a test author meets say what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, SimulatorError, type SimulatorHandle } from '../../src/index.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const FORM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
const LATER = 'frm_203a7d0000010LaterFormAbCd';
const reply = { answer: { framework: 'react', tests: false } };

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ scenario: 'forms-settling', maxPartitions: 4 });
});
afterAll(async () => {
  await sim.close();
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const byHeader =
  (name: string) =>
  (path: string, init: RequestInit = {}) =>
    fetch(`${sim.url}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'x-sim-partition': name },
    });
const byPrefix =
  (name: string) =>
  (path: string, init: RequestInit = {}) =>
    fetch(`${sim.url}/__partition/${name}${path}`, init);
const pendingIds = async (res: Response) =>
  ((await res.json()) as { data: Array<{ id: string }> }).data.map((f) => f.id);

describe('two partitions driven interleaved', () => {
  it('keep their own world, clock and rules, by header and by path prefix', async () => {
    const a = byHeader('worker-a');
    const b = byPrefix('worker-b');
    // A answers the pending form; B still has it pending.
    expect((await a(`/api/session/${SES}/form/${FORM}/reply`, json(reply))).status).toBe(204);
    expect(await pendingIds(await b('/api/form/request'))).toContain(FORM);
    expect((await b(`/api/session/${SES}/form/${FORM}/reply`, json(reply))).status).toBe(204);
    expect((await a(`/api/session/${SES}/form/${FORM}/reply`, json(reply))).status).toBe(409);

    // Clocks: B moves 10 s and sees the later form appear; A, not advanced, does not.
    const advanced = await b('/__sim/clock/advance', json({ by: '10s' }));
    expect(((await advanced.json()) as { partition: string }).partition).toBe('worker-b');
    expect(await pendingIds(await b('/api/form/request'))).toContain(LATER);
    expect(await pendingIds(await a('/api/form/request'))).not.toContain(LATER);

    // A rule added to A answers only A.
    const added = await a(
      '/__sim/rules',
      json({
        when: { operation: 'v2.plugin.list' },
        then: { error: { _tag: 'UnauthorizedError', message: 'Authentication required' } },
        times: 1,
      }),
    );
    expect(added.status).toBe(201);
    const refused = await a('/api/plugin');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-sim-rule')).toBe('runtime rule rul_1');
    expect((await b('/api/plugin')).status).toBe(200);
    expect((await a('/api/plugin')).status).toBe(200); // times: 1

    // The default partition saw none of it.
    expect(await pendingIds(await fetch(`${sim.url}/api/form/request`))).toContain(FORM);
    const journals = await Promise.all(['worker-a', 'worker-b'].map((p) => sim.partition(p).journal()));
    expect(
      journals.map((j) => j.filter((e) => e.operationId === 'v2.session.form.reply').map((e) => e.status)),
    ).toEqual([[204, 409], [204]]);
    expect(journals[0]?.find((e) => e.status === 204)?.changes).toEqual([`form.replied ${FORM} (pending → answered)`]);
  });

  it('gives a partition handle the same shape, with a url that carries the prefix', async () => {
    const c = sim.partition('worker-c');
    expect(c.url).toBe(`${sim.url}/__partition/worker-c`);
    const start = await c.clock.now();
    expect(await c.clock.advance('1m30s')).toBe(start + 90_000);
    expect(await sim.clock.now()).toBe(start);
    expect(((await c.state()) as { forms: Array<{ id: string; state: string }> }).forms.map((f) => f.state)).toEqual([
      'pending',
      'pending',
      'cancelled',
    ]);
    await c.reset();
    expect(await c.clock.now()).toBe(start);
    const listed = (await (await fetch(`${sim.url}/__sim/partitions`)).json()) as {
      partitions: Array<{ name: string }>;
    };
    expect(listed.partitions.map((p) => p.name)).toEqual(
      expect.arrayContaining(['default', 'worker-a', 'worker-b', 'worker-c']),
    );
    await c.close();
    const after = (await (await fetch(`${sim.url}/__sim/partitions`)).json()) as {
      partitions: Array<{ name: string }>;
    };
    expect(after.partitions.map((p) => p.name)).not.toContain('worker-c');
  });
});

describe('refusals say what is wrong', () => {
  it('caps the number of partitions with a clear Sim error', async () => {
    // default, worker-a, worker-b exist (worker-c was deleted): one more fits, the next does not.
    expect((await byHeader('worker-d')('/api/plugin')).status).toBe(200);
    const res = await byHeader('worker-e')('/api/plugin');
    expect(res.status).toBe(429);
    const body = (await res.json()) as { _tag: string; message: string; hint: string };
    expect(body._tag).toBe('SimPartitionLimitError');
    expect(body.message).toBe(
      'Cannot create partition "worker-e": the simulator already holds 4 partitions, its limit',
    );
    expect(body.hint).toContain('DELETE /__sim/partitions/NAME');
    await sim.partition('worker-d').close();
  });

  it('refuses a partition name that cannot travel in a header or a path', async () => {
    const res = await byHeader('no spaces please')('/api/plugin');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { _tag: string })._tag).toBe('SimPartitionNameError');
  });

  it('refuses a run-time rule answering an error the operation does not declare, listing the declared ones', async () => {
    const p = sim.partition('rules');
    const error = await p.rules
      .add({
        when: { operation: 'v2.session.compact' },
        then: { error: { _tag: 'FormNotFoundError', id: 'frm_x', message: 'nope' } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimulatorError);
    const refusal = error as SimulatorError;
    expect(refusal.tag).toBe('SimRuleError');
    expect(refusal.problems?.join('\n')).toMatch(
      /FormNotFoundError is not an error v2\.session\.compact declares\. Declared: .*ConflictError/,
    );
    await p.close();
  });

  it('refuses a bad inline scenario, naming the place of the problem', async () => {
    const p = sim.partition('inline');
    const bad = { name: 'inline', sessions: [{ id: SES, busy: [{ from: '0s', until: 'soon' }] }] };
    const error = (await p.useScenario(bad).catch((e: unknown) => e)) as SimulatorError;
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error.message).toContain('sessions[0].busy[0].until');
    await p.close();
  });
});

describe('run-time faults', () => {
  it('drops the connection, delays an answer, and lists how often each rule fired', async () => {
    const p = sim.partition('faults');
    const dropId = await p.rules.add({ when: { operation: 'v2.model.default' }, then: { drop: true }, times: 1 });
    await expect(fetch(`${p.url}/api/model/default`)).rejects.toThrow();
    expect((await fetch(`${p.url}/api/model/default`)).status).toBe(200);
    await p.rules.add({
      when: { operation: 'v2.plugin.list' },
      then: { status: 200, body: { data: [{ id: 'slow' }] }, delay: '150ms' },
    });
    const began = Date.now();
    const slow = await fetch(`${p.url}/api/plugin`);
    expect(Date.now() - began).toBeGreaterThanOrEqual(140);
    expect(((await slow.json()) as { data: unknown }).data).toEqual([{ id: 'slow' }]);
    const rules = await p.rules.list();
    expect(rules.filter((r) => r.id).map((r) => [r.id, r.fired])).toEqual([
      [dropId, 1],
      ['rul_2', 1],
    ]);
    const journal = await p.journal();
    expect(journal.find((e) => e.operationId === 'v2.model.default')).toMatchObject({
      layer: 'rule',
      rule: `runtime rule ${dropId}`,
    });
    await p.rules.remove(dropId);
    expect((await p.rules.list()).filter((r) => r.id).map((r) => r.id)).toEqual(['rul_2']);
    await p.reset();
    expect((await p.rules.list()).filter((r) => r.id)).toEqual([]);
    await p.close();
  });
});

describe('real time', () => {
  it('fires a scheduled transition as wall time passes, at its own virtual instant', async () => {
    const live = await startSimulator({
      realTime: true,
      scenario: { name: 'live', shells: [{ id: 'sh_203a7e5c7001OpQrStUvWxYzAb', command: 'npm test', timeout: 80 }] },
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const exited = (await live.events()).find((e) => e.kind === 'event' && e.type === 'shell.exited');
      // The shell started with the world, at the wall clock's now (test/integration/real-time.test.ts).
      const shell = (await (await fetch(`${live.url}/api/shell/sh_203a7e5c7001OpQrStUvWxYzAb`)).json()) as {
        data: { time: { started: number } };
      };
      // 250 ms of wall time have passed, but the timeout happened at +80 ms, and the event says so.
      expect(exited).toMatchObject({
        time: shell.data.time.started + 80,
        data: { id: 'sh_203a7e5c7001OpQrStUvWxYzAb', status: 'timeout' },
        cause: { timer: 'shell:sh_203a7e5c7001OpQrStUvWxYzAb' },
      });
    } finally {
      await live.close();
    }
  });
});

describe('mends found in review', () => {
  it('answers a partition name or rule id that does not percent-decode as the client mistake it is', async () => {
    const badName = await fetch(`${sim.url}/__partition/%zz/api/plugin`);
    expect([badName.status, ((await badName.json()) as { _tag: string })._tag]).toEqual([400, 'SimPartitionNameError']);
    const badRule = await fetch(`${sim.url}/__sim/rules/%zz`, { method: 'DELETE' });
    expect([badRule.status, ((await badRule.json()) as { _tag: string })._tag]).toEqual([404, 'SimRuleNotFoundError']);
  });

  it('gives a scenario rule its `times` again after a reset', async () => {
    const p = sim.partition('times');
    await p.useScenario({
      name: 'times',
      rules: [
        {
          when: { operation: 'v2.plugin.list' },
          then: { status: 200, body: { data: [{ id: 'scripted' }] } },
          times: 1,
        },
      ],
    });
    const plugins = async () =>
      ((await (await fetch(`${p.url}/api/plugin`)).json()) as { data: Array<{ id: string }> }).data[0]?.id;
    expect([await plugins(), await plugins()]).toEqual(['scripted', expect.not.stringMatching(/^scripted$/)]);
    await p.reset();
    expect(await plugins()).toBe('scripted');
    await p.close();
  });
});
