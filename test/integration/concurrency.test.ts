/**
 * Concurrency over real sockets: 1,000 requests recorded at once (each written exactly once, whole, paired
 * with its own answer), stateful transitions raced by 50 simultaneous requests (each settles exactly once),
 * and 20 partitions created by simultaneous first requests, each with a world of its own.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { defineScenario } from '../../src/index.js';
import { startServer, type RunningSimulator } from '../../src/hosts/server.js';
import { parseRecording, type Interaction } from '../../src/recordings/format.js';
import { send, sendTogether, startUpstream, type Outgoing, type Reply, type Upstream } from '../support/loopback.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const FRM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
const QUE = 'que_203a7e2a4001LmNoPqRsTuVwXy';
const ATT = 'con_203a64b00001CrBDw85dYNzrGb';
const CRED = 'cred_203a64c10001ChatGptProAbCd';

/** One session with a pending question, one pending form, an integration and an OAuth attempt settling on poll 3. */
const RACES = defineScenario({
  name: 'races',
  sessions: [{ id: SES, messages: [{ type: 'user', text: 'Add an avatar' }], questions: [QUE] }],
  forms: [
    {
      id: FRM,
      sessionID: SES,
      title: 'How should it look?',
      mode: 'form',
      fields: [
        {
          key: 'framework',
          type: 'string',
          required: true,
          options: [
            { value: 'react', label: 'React' },
            { value: 'vue', label: 'Vue' },
          ],
        },
        { key: 'coverage', type: 'integer', minimum: 0, maximum: 100 },
      ],
    },
  ],
  integrations: [
    {
      id: 'openai',
      name: 'OpenAI',
      methods: [{ type: 'oauth', id: 'chatgpt-browser', label: 'ChatGPT (browser)' }, { type: 'key' }],
      connections: [],
    },
  ],
  attempts: [
    {
      id: ATT,
      integrationID: 'openai',
      settles: { as: 'complete', poll: 3, credential: { id: CRED, label: 'ChatGPT Pro' } },
    },
  ],
});

interface LogEntryView {
  kind: string;
  type?: string;
  data?: Record<string, unknown>;
  cause?: { request?: string };
}

const json = <T>(reply: Reply) => reply.json as T;
const count = <T>(items: T[], keep: (item: T) => boolean) => items.filter(keep).length;

async function events(base: string, partition?: string): Promise<LogEntryView[]> {
  const reply = await send(base, { path: '/__sim/events', headers: partition ? { 'x-sim-partition': partition } : {} });
  return json<{ entries: LogEntryView[] }>(reply).entries.filter((e) => e.kind === 'event');
}

async function state(base: string, partition?: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  return json(await send(base, { path: '/__sim/state', headers: partition ? { 'x-sim-partition': partition } : {} }));
}

describe('1,000 concurrent requests in record mode', () => {
  const N = 1000;
  let upstream: Upstream;
  let sim: RunningSimulator;
  let recording: string;
  const upstreamSaw: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    // Answers as the real server does for POST /api/session/{id}/permission with a client-chosen id: {data: {id, effect}}.
    // It holds every answer until all N requests are in (or 10 s passed), then answers them in a shuffled order
    // within ~20 ms: all N are in flight at once, and they complete in another order than they arrived.
    const held: Array<() => void> = [];
    const release = () => {
      for (const answer of held.splice(0).sort(() => Math.random() - 0.5))
        setTimeout(answer, Math.floor(Math.random() * 20));
    };
    let safety: NodeJS.Timeout | undefined;
    upstream = await startUpstream((req, body, res) => {
      const sent = JSON.parse(body) as { id: string };
      upstreamSaw.push(sent.id);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      held.push(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo-id': sent.id });
        res.end(JSON.stringify({ data: { id: sent.id, effect: 'ask' } }));
      });
      safety ??= setTimeout(release, 10_000);
      if (held.length === N) {
        clearTimeout(safety);
        release();
      }
    });
    recording = join(mkdtempSync(join(tmpdir(), 'sim-conc-')), 'thousand.yaml');
    sim = await startServer({ port: 0, upstream: upstream.url, record: recording, log: () => {} });
  });

  afterAll(async () => {
    await sim.close();
    await upstream.close();
    rmSync(join(recording, '..'), { recursive: true, force: true });
  });

  it('writes exactly 1,000 whole interactions, each once, each with its own answer', async () => {
    const agent = new Agent({ keepAlive: false, maxSockets: N });
    const ids = Array.from(
      { length: N },
      (_, i) => `per_c${String(i).padStart(4, '0')}${Math.random().toString(36).slice(2, 10)}`,
    );
    const replies = await Promise.all(
      ids.map((id, i) =>
        send(
          sim.url,
          {
            method: 'POST',
            path: `/api/session/${SES}/permission`,
            // Bodies of different sizes (up to ~2.5 KB): a torn or interleaved write would show as a document that does not parse.
            body: { action: 'bash', resources: [`marker-${id}`], id, metadata: { pad: 'x'.repeat(150 * (i % 12)) } },
          },
          // Bounded: a request that gets no answer fails the test before its own timeout.
          { agent, timeoutMs: 15_000 },
        ),
      ),
    );
    agent.destroy();

    // Every client got 200 with its own id back, checked against the spec without a violation.
    replies.forEach((reply, i) => {
      expect(reply.status, `request ${i}: ${reply.text}`).toBe(200);
      expect(json<{ data: { id: string } }>(reply).data.id).toBe(ids[i]);
      expect(reply.headers['x-echo-id']).toBe(ids[i]);
      expect(reply.headers['x-sim-layer']).toBe('record');
      expect(reply.headers['x-sim-violations']).toBeUndefined();
    });
    expect(upstreamSaw.sort()).toEqual([...ids].sort());
    // They really overlapped: the simulator had all of them out at the upstream at the same time.
    expect(maxInFlight).toBe(N);

    const text = readFileSync(recording, 'utf8');
    // Each interaction is one document of JSON: all of them parse on their own, as YAML and as JSON.
    expect(parseAllDocuments(text).filter((d) => d.errors.length > 0)).toEqual([]);
    const documents = text.split(/^---$/m).slice(1);
    expect(documents).toHaveLength(N);
    const parsed = documents.map((d, i) => {
      try {
        return JSON.parse(d) as Interaction;
      } catch (error) {
        throw new Error(`document ${i + 1} is not whole: ${String(error)}\n${d.slice(0, 300)}`, { cause: error });
      }
    });
    const { interactions, tornTail } = parseRecording(text);
    expect(tornTail).toBe(false);
    expect(interactions).toEqual(parsed);
    // Numbered 1..N in file order: no two writers took the same number, none was skipped.
    expect(interactions.map((i) => i.seq)).toEqual(Array.from({ length: N }, (_, i) => i + 1));

    // Each marker exactly once, and each recorded answer belongs to its recorded request.
    const seen = new Map<string, number>();
    for (const interaction of interactions) {
      const body = interaction.request.body as { id: string; resources: string[]; metadata: { pad: string } };
      seen.set(body.id, (seen.get(body.id) ?? 0) + 1);
      expect(body.resources).toEqual([`marker-${body.id}`]);
      expect(interaction.response.status).toBe(200);
      expect(interaction.response.body, `seq ${interaction.seq}`).toEqual({ data: { id: body.id, effect: 'ask' } });
      expect(interaction.response.headers['x-echo-id']).toBe(body.id);
      expect(interaction.operationId).toBe('v2.session.permission.create');
      expect(interaction.pathParams).toEqual({ sessionID: SES });
      const i = ids.indexOf(body.id);
      expect(body.metadata.pad).toHaveLength(150 * (i % 12));
    }
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    expect([...seen.values()].every((n) => n === 1)).toBe(true);

    // The journal took every exchange once too (it keeps the last 1,000).
    const journal = json<{ entries: Array<{ id: string; layer: string; status: number }> }>(
      await send(sim.url, { path: '/__sim/journal' }),
    ).entries;
    expect(journal).toHaveLength(N);
    expect(new Set(journal.map((e) => e.id)).size).toBe(N);
    expect(journal.every((e) => e.layer === 'record' && e.status === 200)).toBe(true);
  }, 30_000);
});

describe('stateful transitions raced by 50 simultaneous requests (mock mode)', () => {
  let sim: RunningSimulator;
  const partition = (name: string) => ({ 'x-sim-partition': name });

  beforeAll(async () => {
    sim = await startServer({ port: 0, scenario: RACES, log: () => {} });
  });
  afterAll(() => sim.close());

  it('50 replies to one pending form: exactly one 204, 49 FormAlreadySettledError, one form.replied', async () => {
    const at = partition('race-form');
    const requests: Outgoing[] = Array.from({ length: 50 }, (_, i) => ({
      method: 'POST',
      path: `/api/session/${SES}/form/${FRM}/reply`,
      headers: at,
      body: { answer: { framework: i % 2 ? 'vue' : 'react', coverage: i } },
    }));
    const replies = await sendTogether(sim.url, requests, { server: sim.server });
    const winners = replies.flatMap((r, i) => (r.status === 204 ? [i] : []));
    expect(winners, replies.map((r) => r.status).join(',')).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 204)) {
      expect(reply.status).toBe(409);
      expect(reply.json).toEqual({ _tag: 'FormAlreadySettledError', id: FRM, message: `Form already settled: ${FRM}` });
      expect(reply.headers['x-sim-violations']).toBeUndefined();
    }
    const winner = winners[0] as number;
    const replied = (await events(sim.url, 'race-form')).filter((e) => e.type === 'form.replied');
    expect(replied).toHaveLength(1);
    expect(replied[0]?.data).toMatchObject({ id: FRM, answer: (requests[winner]?.body as { answer: unknown }).answer });
    expect(replied[0]?.cause?.request).toBe(replies[winner]?.headers['x-sim-request-id']);
    // The world keeps the winning answer, and lists the form no more.
    const form = (await state(sim.url, 'race-form')).forms?.find((f) => f.id === FRM);
    expect(form).toMatchObject({ state: 'answered', answer: { coverage: winner } });
    expect(json<{ data: unknown[] }>(await send(sim.url, { path: '/api/form/request', headers: at })).data).toEqual([]);
  });

  it('50 replies to one pending question: exactly one 204, 49 QuestionNotFoundError, one question.v2.replied', async () => {
    const replies = await sendTogether(
      sim.url,
      Array.from({ length: 50 }, (_, i) => ({
        method: 'POST',
        path: `/api/session/${SES}/question/${QUE}/reply`,
        headers: partition('race-question'),
        body: { answers: [[`choice-${i}`]] },
      })),
      { server: sim.server },
    );
    const winners = replies.flatMap((r, i) => (r.status === 204 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 204)) {
      expect(reply.status).toBe(404);
      expect(reply.json).toEqual({
        _tag: 'QuestionNotFoundError',
        requestID: QUE,
        message: `Question request not found: ${QUE}`,
      });
    }
    const replied = (await events(sim.url, 'race-question')).filter((e) => e.type === 'question.v2.replied');
    expect(replied.map((e) => e.data)).toEqual([
      { sessionID: SES, requestID: QUE, answers: [[`choice-${winners[0] as number}`]] },
    ]);
    expect((await state(sim.url, 'race-question')).questions?.find((q) => q.id === QUE)).toMatchObject({
      sessionID: SES,
      state: 'replied',
      answers: [[`choice-${winners[0] as number}`]],
    });
  });

  it('50 compactions with the same client id: one admitted, 49 ConflictError; 50 without one: 50 distinct sequence numbers', async () => {
    const at = partition('race-compact');
    const id = 'msg_203a53a2c001Jk3LmNoPqRsTuV';
    const same = await sendTogether(
      sim.url,
      Array.from({ length: 50 }, () => ({
        method: 'POST',
        path: `/api/session/${SES}/compact`,
        headers: at,
        body: { id },
      })),
      { server: sim.server },
    );
    expect(count(same, (r) => r.status === 200)).toBe(1);
    expect(count(same, (r) => r.status === 409 && (r.json as { _tag?: string })._tag === 'ConflictError')).toBe(49);
    expect(
      json<{ data: { admittedSeq: number; id: string } }>(same.find((r) => r.status === 200) as Reply).data,
    ).toMatchObject({ admittedSeq: 1, id });

    const fresh = await sendTogether(
      sim.url,
      Array.from({ length: 50 }, () => ({
        method: 'POST',
        path: `/api/session/${SES}/compact`,
        headers: at,
        body: {},
      })),
      { server: sim.server },
    );
    const admitted = fresh.map((r) => json<{ data: { admittedSeq: number; id: string } }>(r).data);
    expect(fresh.every((r) => r.status === 200)).toBe(true);
    expect(admitted.map((a) => a.admittedSeq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 2),
    );
    expect(new Set(admitted.map((a) => a.id)).size).toBe(50);
    expect(
      (await events(sim.url, 'race-compact')).filter((e) => e.type === 'session.next.compaction.admitted'),
    ).toHaveLength(51);
  });

  it('50 simultaneous polls of an attempt that settles on poll 3: 2 pending, 48 complete, settled and connected once', async () => {
    const at = partition('race-attempt');
    const replies = await sendTogether(
      sim.url,
      Array.from({ length: 50 }, () => ({ path: `/api/integration/attempt/${ATT}`, headers: at })),
      { server: sim.server },
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const statuses = replies.map((r) => json<{ data: { status: string } }>(r).data.status);
    expect(count(statuses, (s) => s === 'pending')).toBe(2);
    expect(count(statuses, (s) => s === 'complete')).toBe(48);
    const log = await events(sim.url, 'race-attempt');
    expect(log.filter((e) => e.type === 'integration.attempt.settled').map((e) => e.data)).toEqual([
      { attemptID: ATT, integrationID: 'openai', status: 'complete' },
    ]);
    expect(log.filter((e) => e.type === 'integration.credential.connected')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'integration.attempt.polled')).toHaveLength(50);
    const world = await state(sim.url, 'race-attempt');
    expect(world.attempts?.find((a) => a.id === ATT)).toMatchObject({ state: 'complete', polls: 50 });
    expect(world.integrations?.find((i) => i.id === 'openai')?.connections).toEqual([
      { type: 'credential', id: CRED, label: 'ChatGPT Pro' },
    ]);
  });
});

describe('20 partitions created by simultaneous first requests', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startServer({ port: 0, scenario: RACES, log: () => {} });
  });
  afterAll(() => sim.close());

  it('each gets one world of its own: its requests land there, none in another, none in default', async () => {
    const names = Array.from({ length: 20 }, (_, p) => `conc-${p}`);
    // Five first requests per partition, all 100 at once, half addressed by header and half by path prefix:
    // each partition must be created once, not once per racing request (which would lose switches).
    const requests: Outgoing[] = names.flatMap((name, p) =>
      Array.from({ length: 5 }, (_, k): Outgoing => {
        const body = { agent: `agent-${p}-${k}` };
        return k % 2
          ? { method: 'POST', path: `/__partition/${name}/api/session/${SES}/agent`, body }
          : { method: 'POST', path: `/api/session/${SES}/agent`, headers: { 'x-sim-partition': name }, body };
      }),
    );
    const replies = await sendTogether(sim.url, requests, { server: sim.server });
    expect(replies.map((r) => r.status)).toEqual(Array(100).fill(204));

    // Each partition answers a state change of its own with a form reply, all at once too.
    const forms = await sendTogether(
      sim.url,
      names.map((name, p) => ({
        method: 'POST',
        path: `/__partition/${name}/api/session/${SES}/form/${FRM}/reply`,
        body: { answer: { framework: 'react', coverage: p } },
      })),
      { server: sim.server },
    );
    expect(forms.map((r) => r.status)).toEqual(Array(20).fill(204));
    // And one partition moves its clock: no other partition sees the time pass.
    await send(sim.url, { method: 'POST', path: '/__partition/conc-0/__sim/clock/advance', body: { by: '90s' } });

    const listed = json<{ partitions: Array<{ name: string; now: number }> }>(
      await send(sim.url, { path: '/__sim/partitions' }),
    ).partitions;
    expect(listed.map((p) => p.name).sort()).toEqual(['default', ...names].sort());
    const start = listed.find((p) => p.name === 'default')?.now as number;
    expect(listed.find((p) => p.name === 'conc-0')?.now).toBe(start + 90_000);
    expect(listed.filter((p) => p.name !== 'conc-0').every((p) => p.now === start)).toBe(true);

    await Promise.all(
      names.map(async (name, p) => {
        const log = await events(sim.url, name);
        // Exactly its own five switches (in whatever order they were read) and its own form answer.
        expect(
          log
            .filter((e) => e.type === 'session.next.agent.switched')
            .map((e) => e.data?.agent)
            .sort(),
        ).toEqual(Array.from({ length: 5 }, (_, k) => `agent-${p}-${k}`));
        expect(
          log.filter((e) => e.type === 'form.replied').map((e) => (e.data?.answer as { coverage: number }).coverage),
        ).toEqual([p]);
        const world = await state(sim.url, name);
        expect(world.forms?.find((f) => f.id === FRM)).toMatchObject({ state: 'answered', answer: { coverage: p } });
        // 1 scripted message + its own 5 switches.
        expect(world.sessions?.find((s) => s.id === SES)?.messages).toBe(6);
        const page = json<{ data: Array<{ type: string; agent?: string }> }>(
          await send(sim.url, { path: `/__partition/${name}/api/session/${SES}/message?limit=10` }),
        );
        expect(
          page.data
            .filter((m) => m.type === 'agent-switched')
            .map((m) => m.agent)
            .sort(),
        ).toEqual(Array.from({ length: 5 }, (_, k) => `agent-${p}-${k}`));
      }),
    );

    // The default partition saw none of it.
    expect(await events(sim.url)).toEqual([]);
    const untouched = await state(sim.url);
    expect(untouched.forms?.find((f) => f.id === FRM)).toMatchObject({ state: 'pending' });
    expect(untouched.sessions?.find((s) => s.id === SES)?.messages).toBe(1);
    expect(
      json<{ data: Array<{ id: string }> }>(await send(sim.url, { path: '/api/form/request' })).data.map((f) => f.id),
    ).toEqual([FRM]);
  });
});
