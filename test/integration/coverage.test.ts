/**
 * Coverage: what a suite made the simulator do against what the spec and the scenario make possible, per
 * partition and merged, and written to a file at shutdown.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverageReport, createCoverage, mergeCounts } from '../../src/control/coverage.js';
import { startSimulator } from '../../src/index.js';
import { KINDS } from '../../src/kinds/registry.js';
import { loadSpec } from '../../src/openapi/openapi.js';
import type { Violation } from '../../src/openapi/violation.js';
import { createEventLog, type EventLog } from '../../src/state/log.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const FORM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';
const dir = mkdtempSync(join(tmpdir(), 'sim-coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('coverage', () => {
  it('counts operations, declared errors, transitions and rules, and writes the merged report at close', async () => {
    const file = join(dir, 'coverage.json');
    const logged: string[] = [];
    const sim = await startSimulator({ scenario: 'forms-settling', coverage: file, log: (line) => logged.push(line) });
    const a = sim.partition('a');
    await post(`${a.url}/api/session/${SES}/form/${FORM}/reply`, { answer: {} });
    await post(`${a.url}/api/session/${SES}/form/${FORM}/reply`, { answer: { framework: 'react' } });
    await post(`${a.url}/api/session/${SES}/form/${FORM}/reply`, { answer: { framework: 'react' } });
    await a.clock.advance('2m');
    await a.rules.add({ when: { operation: 'v2.plugin.list' }, then: { status: 200, body: { data: [] } } });
    await fetch(`${sim.url}/api/form/request`);

    const mine = await a.coverage();
    const reply = mine.operations.find((o) => o.operationId === 'v2.session.form.reply');
    expect(reply?.requests).toBe(3);
    expect(reply?.statuses.filter((s) => s.answered > 0).map((s) => s.status)).toEqual([204, 400, 409]);
    expect(reply?.errors.filter((e) => e.answered > 0).map((e) => e.tag)).toEqual([
      'FormInvalidAnswerError',
      'FormAlreadySettledError',
    ]);
    expect(mine.untouched.operations).toContain('v2.form.request.list');
    expect(mine.transitions.filter((t) => t.happened > 0).map((t) => t.transition)).toEqual([
      `forms-settling: form ${FORM} pending → answered`,
      'forms-settling: form frm_203a7d0000010LaterFormAbCd scheduled → pending',
      'forms-settling: form frm_203a7e0000010CancelledAbCd pending → cancelled',
    ]);
    expect(mine.untouched.rules).toEqual(['runtime rule rul_1']);
    expect(mine.summary.operations).toEqual({ covered: 1, total: 91 });
    expect(mine.summary.line).toMatch(
      /^operations 1\/91, declared errors 2\/\d+, transitions 3\/\d+, rules fired 0\/1$/,
    );

    const all = await sim.coverage({ all: true });
    expect(all.summary.operations.covered).toBe(2);

    await sim.close();
    const written = JSON.parse(readFileSync(file, 'utf8')) as {
      summary: { line: string };
      partitions: Record<string, unknown>;
    };
    expect(written.summary.line).toBe(all.summary.line);
    expect(Object.keys(written.partitions).sort()).toEqual(['a', 'default']);
    expect(logged).toContain(`coverage: ${all.summary.line} (${file})`);
  });

  it('counts where each operation broke the spec, by side, place and field, across partitions', async () => {
    const spec = await loadSpec();
    const answered = (log: EventLog, operationId: string | undefined, violations?: Violation[]) =>
      log.append({
        kind: 'exchange',
        id: `req_${log.lastSeq + 1}`,
        time: 0,
        method: 'POST',
        path: '/x',
        operationId,
        layer: 'upstream',
        status: 200,
        ...(violations ? { violations } : {}),
      });
    const effect: Violation = {
      side: 'response',
      in: 'body',
      field: 'data.effect',
      message: 'data.effect is not an allowed field',
    };
    const status: Violation = { side: 'response', in: 'status', message: 'status 503 is not declared' };
    const [one, two] = [createEventLog(), createEventLog()];
    const coverages = [one, two].map((log) => createCoverage(log, spec, () => undefined, KINDS));
    answered(one, 'v2.session.permission.create', [effect]);
    answered(two, 'v2.session.permission.create', [effect, status]);
    answered(two, 'v2.plugin.list');
    // No operation to count it against: the journal has it, coverage does not.
    answered(two, undefined, [{ side: 'request', in: 'route', message: 'no operation of the spec matches' }]);

    const report = coverageReport(mergeCounts(coverages.map((c) => c.counts())), spec);
    const permission = report.operations.find((o) => o.operationId === 'v2.session.permission.create');
    expect(permission?.violations).toEqual([
      { side: 'response', in: 'body', field: 'data.effect', count: 2 },
      { side: 'response', in: 'status', count: 1 },
    ]);
    expect(report.operations.find((o) => o.operationId === 'v2.plugin.list')?.violations).toEqual([]);
    expect(report.summary.violatedOperations).toBe(1);
    expect(report.summary.line).toMatch(/, spec violations in 1 operation$/);
    expect(coverages[0]?.report().summary.line).toMatch(/, spec violations in 1 operation$/);
  });
});
