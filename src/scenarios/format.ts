/**
 * The scenario format's JSON Schema (scenarios/scenario.schema.json) as validators, and its errors as
 * problems a person can act on. One compiled schema serves whole scenarios and single rules (`$defs/rule`,
 * the shape of rules added at run time), so the two cannot drift apart.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Kind, Path } from '../kinds/kind.js';
import { KINDS } from '../kinds/registry.js';
import { createAjv } from '../openapi/ajv.js';
import { didYouMean } from '../text/closest.js';
import * as base from './format-base.js';
import { packagePath } from '../files/package-path.js';

export const SCENARIO_SCHEMA_PATH = packagePath(import.meta.url, '../../scenarios/scenario.schema.json');

// Declared with the kinds, whose readers report problems at a path.
export type { Path };

/**
 * The scenario format as JSON Schema: its own part (src/scenarios/format-base.ts) with each kind's sections
 * in the registry's order, and a `when.state` condition for each stateful kind naming exactly its states.
 * scenarios/scenario.schema.json is this, written for editors by `npm run schema` (a test holds it equal).
 */
export function scenarioSchema(kinds: readonly Kind[]): { $id: string } & Record<string, unknown> {
  const rule = structuredClone(base.defs.rule);
  const conditions: Record<string, object> = {};
  for (const kind of kinds) {
    if (!kind.states || !kind.condition) continue;
    conditions[kind.name] = {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'is'],
      description: kind.condition.description,
      properties: { id: { type: 'string', pattern: kind.condition.pattern }, is: { enum: [...kind.states] } },
    };
  }
  (rule.properties.when.properties.state as { properties?: object }).properties = conditions;
  return {
    ...base.head,
    properties: {
      ...base.properties,
      ...Object.assign({}, ...kinds.map((k) => k.format?.properties ?? {})),
      rules: base.rules,
    },
    $defs: {
      duration: base.defs.duration,
      instant: base.defs.instant,
      window: base.defs.window,
      ...Object.assign({}, ...kinds.map((k) => k.format?.defs ?? {})),
      rule,
      streamFault: base.defs.streamFault,
    },
  };
}

/** One format problem: where (in the checked value), what, and whether it concerns a key rather than a value. */
export interface FormatProblem {
  path: Path;
  message: string;
  /**
   * The field the message is about, for places that cannot show the path itself (a file position):
   * `count must be integer` there, `sessions[0].generate.count: must be integer` where the path is shown.
   */
  subject?: string;
  atKey: boolean;
}

let ajv: { instance: Ajv2020; id: string } | undefined;

function compiled(): { instance: Ajv2020; id: string } {
  if (ajv) return ajv;
  const schema = scenarioSchema(KINDS.list);
  // verbose: an error carries its schema, whose properties are the fields an unknown one may have meant.
  const instance = createAjv({ allErrors: true, strict: false, verbose: true });
  instance.addSchema(schema);
  ajv = { instance, id: schema.$id };
  return ajv;
}

function validator(fragment: string): ValidateFunction {
  const { instance, id } = compiled();
  const validate = instance.getSchema(`${id}${fragment}`);
  if (!validate) throw new Error(`scenario.schema.json has no ${fragment}`);
  return validate;
}

/** Problems of a whole scenario against the format; `subject` names the value in a root-level message. */
export function checkScenarioFormat(value: unknown): FormatProblem[] {
  return check(validator(''), value, 'scenario');
}

/** Problems of one `rules[]` entry against the format, paths relative to the rule. */
export function checkRuleFormat(value: unknown): FormatProblem[] {
  return check(validator('#/$defs/rule'), value, 'rule');
}

function check(validate: ValidateFunction, value: unknown, root: string): FormatProblem[] {
  return validate(value) ? [] : describe(validate.errors ?? [], root);
}

/** Durations are a `oneOf` of a string and a number; its branches' errors would only confuse. */
const DURATION = '#/$defs/duration/';
const DURATION_MESSAGE = 'must be a duration: 250ms, 30s, 5m, 1h, 1m30s, or milliseconds as a number (at least 0)';
export const INSTANT_MESSAGE =
  'must be a duration from the start (250ms, 30s, 1m30s, or milliseconds as a number) or an ISO 8601 date-time (2026-11-22T08:59:30.125Z)';
/** What a pattern means, where "must match pattern" would leave the reader to decode a regular expression. */
const PATTERN_MESSAGES: Record<string, string> = { '^/': 'must be an absolute path (starting with /)' };

function describe(errors: ErrorObject[], root: string): FormatProblem[] {
  const out: FormatProblem[] = [];
  const seen = new Set<string>();
  // An instant is the format's only anyOf over a duration (or a date-time). Where one fails, every branch fails
  // with it, and the errors of none of them say what was wanted; ajv names the branches by paths relative to
  // wherever it compiled the reference, so the value's place is what tells them apart.
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const instants = new Set(
    errors.filter((e) => e.schemaPath.includes(DURATION) && anyOfAt.has(e.instancePath)).map((e) => e.instancePath),
  );
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const path: Path = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
    // Where no path is shown (a file position), the message names the field by its whole path.
    const subject = path.length ? formatPath(path) : root;
    let problem: FormatProblem;
    if (instants.has(e.instancePath)) {
      problem = { path, subject, message: INSTANT_MESSAGE, atKey: false };
    } else if (e.keyword === 'additionalProperties') {
      const field = e.params.additionalProperty as string;
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const near = didYouMean(field, known);
      // At a file position the object it is in is named first; next to a path, the path says it.
      const within = path.length ? `${formatPath(path)}:` : undefined;
      path.push(field);
      problem = {
        path,
        subject: within,
        message: `unknown field "${field}".${near || (known.length ? ` Fields here: ${known.join(', ')}.` : '')}`,
        atKey: true,
      };
    } else if (e.keyword === 'required') {
      problem = {
        path,
        subject: path.length ? `${formatPath(path)}:` : undefined,
        message: `missing field "${e.params.missingProperty as string}"`,
        atKey: false,
      };
    } else if (e.keyword === 'enum') {
      const allowed = e.params.allowedValues as unknown[];
      const given = e.data;
      const near =
        typeof given === 'string'
          ? didYouMean(
              given,
              allowed.filter((v): v is string => typeof v === 'string'),
            )
          : '';
      problem = {
        path,
        subject,
        message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(given)}.${near}`,
        atKey: false,
      };
    } else if (e.schemaPath.includes(DURATION)) {
      problem = { path, subject, message: DURATION_MESSAGE, atKey: false };
    } else if (e.keyword === 'pattern' && PATTERN_MESSAGES[e.params.pattern as string]) {
      problem = { path, subject, message: PATTERN_MESSAGES[e.params.pattern as string] as string, atKey: false };
    } else {
      problem = { path, subject, message: e.message ?? 'is invalid', atKey: false };
    }
    const key = `${path.join('.')}|${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(problem);
    }
  }
  return out;
}

/** `sessions[0].busy[1].until`: how a JavaScript author would reach the value. */
export function formatPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
