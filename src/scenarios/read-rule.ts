/**
 * Reads one `rules` entry of a scenario into a `RuleDefinition`, checking that it names a real operation and
 * that what it answers is a status and body that operation declares.
 */
import { checkAnswer } from '../spec/answer-check.js';
import { parseDuration } from '../duration.js';
import type { SpecIndex } from '../spec/openapi.js';
import type { RuleDefinition } from './definition.js';

type Json = Record<string, unknown>;
type Report = (path: Array<string | number>, message: string) => void;

export function readRule(raw: Json, index: number, spec: SpecIndex, at: (value: unknown) => number, report: Report, file: string): RuleDefinition {
  const when = raw.when as Json;
  const then = raw.then as Json;
  const operation = spec.byId.get(when.operation as string);
  const base: Array<string | number> = ['rules', index];
  if (!operation) {
    report([...base, 'when', 'operation'], `no operation ${String(when.operation)} in the spec (GET /__sim/operations lists them)`);
  }
  const error = then.error as Json | undefined;
  let status = then.status as number | undefined;
  const answer = error ?? then.body;
  if (error && operation && status === undefined) {
    const tag = (error._tag ?? error.name) as string | undefined;
    status = [...operation.responses.values()].find((r) => tag !== undefined && r.tags.includes(tag))?.status;
    if (status === undefined) report([...base, 'then', 'error'], `${String(tag)} is not an error ${operation.operationId} declares (declared: ${[...operation.declaredTags].join(', ')})`);
  }
  if (operation && status === undefined && !error) report([...base, 'then'], 'say what to answer: status (and body), or error');
  if (operation && status !== undefined) {
    // Location-scoped answers get their envelope's location filled in when served; check them with one.
    const served = withLocation(operation.locationEnvelope, answer, { directory: '/', project: { id: 'global', directory: '/' } });
    for (const problem of checkAnswer(operation, status, served)) report([...base, 'then'], `answer violates the spec: ${problem}`);
  }
  return {
    operation: when.operation as string,
    params: (when.params as Record<string, string> | undefined) ?? {},
    query: when.query as Json | undefined,
    body: when.body as Json | undefined,
    after: when.after === undefined ? undefined : at(when.after),
    before: when.before === undefined ? undefined : at(when.before),
    state: when.state as RuleDefinition['state'],
    status: status ?? 500,
    answer,
    delay: then.delay === undefined ? 0 : (parseDuration(then.delay as string | number) ?? 0),
    times: raw.times as number | undefined,
    where: `${file} rules[${index}]`,
  };
}

/** Adds `location` to a location-scoped success body that the scenario wrote without one. */
export function withLocation(envelope: boolean, body: unknown, location: unknown): unknown {
  if (!envelope || typeof body !== 'object' || body === null || Array.isArray(body) || 'location' in body || '_tag' in body || !('data' in body)) return body;
  return { location, ...body };
}
