/**
 * Coverage: a reader of a partition's log that counts what a test suite made the simulator do, against what
 * the spec and the scenario make possible: every operation (requests, statuses and `_tag`s answered against
 * those it declares), every lifecycle transition the scenario can make (form answered, shell timed out,
 * attempt expired, session busy…) and every rule (fired or never), plus where each operation's traffic broke
 * the spec (side, place and field of each violation, and how often), and what rules answered outside the spec
 * on purpose (`outsideSpec`). Unlike the journal it survives resets:
 * a suite resets between tests and wants one report at the end.
 */
import type { KindCatalog } from '../kinds/catalog.js';
import type { ScenarioDefinition } from '../scenarios/definition.js';
import type { OperationDefinition, SpecIndex } from '../openapi/openapi.js';
import type { Violation } from '../openapi/violation.js';
import { WORLD_RESETS, type EventLog, type LogEntry } from '../state/log.js';
import type { Transition } from '../state/events.js';

interface OperationCounts {
  requests: number;
  statuses: Map<number, number>;
  tags: Map<string, number>;
  /** `violationKey` → how often; a place's messages vary with the values sent, so they are not kept. */
  violations: Map<string, number>;
}

/** A violated field of an operation, and how many violations named it. */
export type ViolationCount = Pick<Violation, 'side' | 'in' | 'field'> & { count: number };

/** Plain counters, so the counts of several partitions add up into one report. */
export interface CoverageCounts {
  operations: Map<string, OperationCounts>;
  /** `scenario kind id from→to` → how often. */
  transitions: Map<string, number>;
  possibleTransitions: Set<string>;
  /** Where a rule is written → how often it answered. */
  rules: Map<string, number>;
  /** `METHOD operationId-or-path` → how many exchanges a rule answered outside the spec (`outsideSpec`). */
  outsideSpec: Map<string, number>;
}

/** Paths outside the spec are the client's to choose: past this many, the rest are counted together. */
const OUTSIDE_SPEC_KEYS = 256;
const OTHER_OUTSIDE_SPEC = '(other requests)';

export interface CoverageReport {
  summary: {
    operations: Ratio;
    declaredErrors: Ratio;
    transitions: Ratio;
    rules: Ratio;
    /** Operations whose traffic broke the spec at least once. */
    violatedOperations: number;
    /** Exchanges answered by a rule outside the spec (`outsideSpec: true`). */
    outsideSpec: number;
    line: string;
  };
  operations: Array<{
    operationId: string;
    method: string;
    path: string;
    requests: number;
    statuses: Array<{ status: number; declared: boolean; answered: number }>;
    errors: Array<{ tag: string; answered: number }>;
    /** Where its requests and answers broke the spec; empty when they never did. */
    violations: ViolationCount[];
  }>;
  transitions: Array<{ transition: string; happened: number }>;
  rules: Array<{ rule: string; fired: number }>;
  /**
   * What rules answered outside the spec, by request (`GET /api/gateway/openai`, or `POST v2.plugin.list` where
   * the path has an operation), most answered first.
   */
  outsideSpec: Array<{ request: string; answered: number }>;
  /** The short lists a reader looks for first. */
  untouched: { operations: string[]; declaredErrors: string[]; transitions: string[]; rules: string[] };
}

interface Ratio {
  covered: number;
  total: number;
}

export interface Coverage {
  counts(): CoverageCounts;
  report(): CoverageReport;
}

export function emptyCounts(): CoverageCounts {
  return {
    operations: new Map(),
    transitions: new Map(),
    possibleTransitions: new Set(),
    rules: new Map(),
    outsideSpec: new Map(),
  };
}

export function createCoverage(
  log: EventLog,
  spec: SpecIndex,
  scenario: () => ScenarioDefinition | undefined,
  kinds: KindCatalog,
): Coverage {
  const counts = emptyCounts();
  const learn = () => {
    const definition = scenario();
    if (!definition) return;
    for (const t of kinds.possible(definition)) counts.possibleTransitions.add(transitionKey(definition.name, t));
    for (const rule of definition.rules) if (!counts.rules.has(rule.where)) counts.rules.set(rule.where, 0);
  };
  learn();
  log.subscribe((entry: LogEntry) => {
    if (entry.kind === 'exchange') {
      if (entry.rule !== undefined) bump(counts.rules, entry.rule);
      if (entry.outsideSpec) {
        const key = `${entry.method} ${entry.operationId ?? entry.path}`;
        bump(
          counts.outsideSpec,
          counts.outsideSpec.has(key) || counts.outsideSpec.size < OUTSIDE_SPEC_KEYS ? key : OTHER_OUTSIDE_SPEC,
        );
      }
      if (entry.operationId === undefined) return;
      const op = counts.operations.get(entry.operationId) ?? emptyOperation();
      counts.operations.set(entry.operationId, op);
      op.requests++;
      bump(op.statuses, entry.status);
      if (entry.tag !== undefined) bump(op.tags, entry.tag);
      if (entry.violations) for (const v of entry.violations) bump(op.violations, violationKey(v));
    } else if (entry.kind === 'event') {
      const definition = scenario();
      if (entry.transition && definition) bump(counts.transitions, transitionKey(definition.name, entry.transition));
    } else if (WORLD_RESETS.has(entry.action)) {
      // A switch or reload may bring another scenario, with transitions and rules of its own.
      learn();
    } else if (entry.action === 'rule.added' && entry.detail !== undefined && !counts.rules.has(entry.detail)) {
      counts.rules.set(entry.detail, 0);
    }
  });
  return { counts: () => counts, report: () => coverageReport(counts, spec) };
}

function emptyOperation(): OperationCounts {
  return { requests: 0, statuses: new Map(), tags: new Map(), violations: new Map() };
}

/** One string per side, place and field, so the counts stay plain maps that add up across partitions. */
function violationKey(v: Pick<Violation, 'side' | 'in' | 'field'>): string {
  return `${v.side}\0${v.in}\0${v.field ?? ''}`;
}

function fromViolationKey(key: string, count: number): ViolationCount {
  const [side, place, field] = key.split('\0') as [Violation['side'], Violation['in'], string];
  return { side, in: place, ...(field ? { field } : {}), count };
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function transitionKey(scenario: string, t: Pick<Transition, 'kind' | 'id' | 'from' | 'to'>): string {
  return `${scenario}: ${t.kind} ${t.id} ${t.from} → ${t.to}`;
}

/** Adds the counts of several partitions into one. */
export function mergeCounts(all: CoverageCounts[]): CoverageCounts {
  const merged = emptyCounts();
  for (const c of all) {
    for (const [id, op] of c.operations) {
      const into = merged.operations.get(id) ?? emptyOperation();
      merged.operations.set(id, into);
      into.requests += op.requests;
      for (const [s, n] of op.statuses) into.statuses.set(s, (into.statuses.get(s) ?? 0) + n);
      for (const [t, n] of op.tags) into.tags.set(t, (into.tags.get(t) ?? 0) + n);
      for (const [k, n] of op.violations) into.violations.set(k, (into.violations.get(k) ?? 0) + n);
    }
    for (const [k, n] of c.transitions) merged.transitions.set(k, (merged.transitions.get(k) ?? 0) + n);
    for (const k of c.possibleTransitions) merged.possibleTransitions.add(k);
    for (const [k, n] of c.rules) merged.rules.set(k, (merged.rules.get(k) ?? 0) + n);
    for (const [k, n] of c.outsideSpec) merged.outsideSpec.set(k, (merged.outsideSpec.get(k) ?? 0) + n);
  }
  return merged;
}

function errorTags(operation: OperationDefinition): string[] {
  return [...operation.responses.values()].filter((r) => r.status >= 400).flatMap((r) => r.tags);
}

export function coverageReport(counts: CoverageCounts, spec: SpecIndex): CoverageReport {
  const operations = spec.operations.map((op) => {
    const seen = counts.operations.get(op.operationId);
    const declared = [...op.responses.keys()];
    const statuses = [...new Set([...declared, ...(seen?.statuses.keys() ?? [])])].sort((a, b) => a - b);
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      requests: seen?.requests ?? 0,
      statuses: statuses.map((status) => ({
        status,
        declared: op.responses.has(status),
        answered: seen?.statuses.get(status) ?? 0,
      })),
      errors: errorTags(op).map((tag) => ({ tag, answered: seen?.tags.get(tag) ?? 0 })),
      // Most frequent first; the key's order (side, place, field) breaks ties so reports compare stably.
      violations: [...(seen?.violations ?? [])]
        .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0))
        .map(([key, count]) => fromViolationKey(key, count)),
    };
  });
  const transitions = [...new Set([...counts.possibleTransitions, ...counts.transitions.keys()])]
    .sort()
    .map((transition) => ({ transition, happened: counts.transitions.get(transition) ?? 0 }));
  const rules = [...counts.rules].map(([rule, fired]) => ({ rule, fired }));
  const outsideSpec = [...counts.outsideSpec]
    .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([request, answered]) => ({ request, answered }));
  const untouched = {
    operations: operations.filter((o) => o.requests === 0).map((o) => o.operationId),
    declaredErrors: operations.flatMap((o) =>
      o.errors.filter((e) => e.answered === 0).map((e) => `${o.operationId} ${e.tag}`),
    ),
    transitions: transitions.filter((t) => t.happened === 0).map((t) => t.transition),
    rules: rules.filter((r) => r.fired === 0).map((r) => r.rule),
  };
  const ratio = (covered: number, total: number): Ratio => ({ covered, total });
  const errorsTotal = operations.reduce((n, o) => n + o.errors.length, 0);
  const summary = {
    operations: ratio(operations.length - untouched.operations.length, operations.length),
    declaredErrors: ratio(errorsTotal - untouched.declaredErrors.length, errorsTotal),
    transitions: ratio(transitions.length - untouched.transitions.length, transitions.length),
    rules: ratio(rules.length - untouched.rules.length, rules.length),
    violatedOperations: operations.filter((o) => o.violations.length > 0).length,
    outsideSpec: outsideSpec.reduce((n, o) => n + o.answered, 0),
  };
  // Spec violations are named only when there are some: a clean run's line stays as short as it was.
  const line =
    `operations ${summary.operations.covered}/${summary.operations.total}, declared errors ${summary.declaredErrors.covered}/${summary.declaredErrors.total}, ` +
    `transitions ${summary.transitions.covered}/${summary.transitions.total}, rules fired ${summary.rules.covered}/${summary.rules.total}` +
    (summary.violatedOperations
      ? `, spec violations in ${summary.violatedOperations} operation${summary.violatedOperations === 1 ? '' : 's'}`
      : '') +
    (summary.outsideSpec
      ? `, ${summary.outsideSpec} exchange${summary.outsideSpec === 1 ? '' : 's'} outside the spec`
      : '');
  return { summary: { ...summary, line }, operations, transitions, rules, outsideSpec, untouched };
}
