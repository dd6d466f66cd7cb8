/**
 * Checks one request against its operation: path parameters, query (including the `location` deepObject),
 * content type, JSON syntax and body schema, plus the rules a schema cannot say (cursor format, cursor with
 * order). Collects every violation; choosing the error to answer is `input-errors.ts`'s job.
 */
import type { OperationDefinition } from './openapi.js';
import type { Violation } from './violation.js';

export interface RequestParts {
  pathParams: Record<string, string>;
  searchParams: URLSearchParams;
  contentType: string | undefined;
  rawBody: Buffer;
}

export interface ValidatedRequest {
  query: Record<string, unknown>;
  body: unknown;
  violations: Violation[];
}

/** A rule of an operation's query that JSON Schema cannot express (a cursor's format, a cursor with an order). */
export type QueryCheck = (query: Record<string, unknown>) => Violation[];

/** `queryChecks`: the kinds' rules beyond the schema, by operationId (`Kind.queryChecks`). */
export function validateRequest(
  operation: OperationDefinition,
  parts: RequestParts,
  queryChecks: Readonly<Record<string, QueryCheck>> = {},
): ValidatedRequest {
  const violations: Violation[] = [];

  for (const d of operation.checkParams(parts.pathParams)) {
    const field = d.path.split('.')[0] || undefined;
    violations.push({
      side: 'request',
      in: 'path',
      field,
      message: `Path parameter "${field}" ${d.message}, got ${JSON.stringify(parts.pathParams[field ?? ''])}`,
    });
  }

  const { query, violations: queryShape } = readQuery(operation, parts.searchParams);
  violations.push(...queryShape);
  if (queryShape.length === 0) {
    for (const d of operation.checkQuery(query)) {
      const field = wireName(d.path);
      violations.push({ side: 'request', in: 'query', field, message: `Query parameter "${field}" ${d.message}` });
    }
  }
  if (violations.every((v) => v.in !== 'query'))
    violations.push(...(queryChecks[operation.operationId]?.(query) ?? []));

  const { body, violations: bodyViolations } = readBody(operation, parts);
  // A body of 150,000 wrong items has as many violations: the first few say what is wrong, and spreading them
  // all into one call would overflow the stack.
  for (const violation of bodyViolations.slice(0, MAX_REPORTED)) violations.push(violation);
  return { query, body, violations };
}

/** How many body violations a request's answer and journal line report at most. */
const MAX_REPORTED = 20;

/** `location.directory` → `location[directory]`: name query fields the way they travel in the URL. */
function wireName(path: string): string {
  const [head, ...rest] = path.split('.');
  return head + rest.map((r) => `[${r}]`).join('');
}

function readQuery(
  operation: OperationDefinition,
  params: URLSearchParams,
): { query: Record<string, unknown>; violations: Violation[] } {
  const query: Record<string, unknown> = {};
  const violations: Violation[] = [];
  for (const param of operation.queryParams) {
    if (param.deepObject) {
      const prefix = `${param.name}[`;
      // No prototype: `location[__proto__]` and `location[toString]` are keys like any other (unknown ones).
      const object: Record<string, string> = Object.create(null) as Record<string, string>;
      let found = false;
      for (const [key, value] of params) {
        if (key === param.name) {
          violations.push({
            side: 'request',
            in: 'query',
            field: key,
            message: `Query parameter "${key}" must be sent as an object, e.g. ${key}[directory]=/path`,
          });
        } else if (key.startsWith(prefix) && key.endsWith(']')) {
          const prop = key.slice(prefix.length, -1);
          if (Object.hasOwn(object, prop))
            violations.push({
              side: 'request',
              in: 'query',
              field: key,
              message: `Query parameter "${key}" is given more than once`,
            });
          object[prop] = value;
          found = true;
        }
      }
      if (found) query[param.name] = object;
    } else {
      const values = params.getAll(param.name);
      if (values.length > 1)
        violations.push({
          side: 'request',
          in: 'query',
          field: param.name,
          message: `Query parameter "${param.name}" is given more than once`,
        });
      if (values.length > 0) query[param.name] = typed(param, values[0]!);
    }
  }
  return { query, violations };
}

/**
 * A query value as the schema types it: the real server decodes `?limit=5` as the number 5 where its document
 * says number; text that is no number stays text, for validation to refuse.
 */
function typed(param: OperationDefinition['queryParams'][number], value: string): unknown {
  const { type } = param;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return value;
}

/**
 * A body the spec leaves optional may still have fields it cannot do without (the real server's document
 * says so of several `/experimental/` operations): sent without one, the request lacks them, as the real
 * server's own decoding finds ("Expected object, got undefined").
 */
function missingFields(spec: NonNullable<OperationDefinition['body']>): Violation[] {
  const missing = spec.check({}).filter((d) => /required/.test(d.message));
  if (!missing.length) return [];
  return [
    {
      side: 'request',
      in: 'body',
      message: `Request body is required here (${missing.map((d) => d.message).join('; ')}): send a JSON object with Content-Type: application/json`,
    },
  ];
}

function readBody(operation: OperationDefinition, parts: RequestParts): { body: unknown; violations: Violation[] } {
  const spec = operation.body;
  const empty = parts.rawBody.length === 0;
  if (!spec) return { body: undefined, violations: [] };
  if (empty) {
    return spec.required
      ? {
          body: undefined,
          violations: [
            {
              side: 'request',
              in: 'body',
              message: 'Request body is required: send a JSON object with Content-Type: application/json',
            },
          ],
        }
      : { body: undefined, violations: missingFields(spec) };
  }
  const mediaType = parts.contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType?.endsWith('+json')) {
    return {
      body: undefined,
      violations: [
        {
          side: 'request',
          in: 'body',
          message: `Unsupported content type ${JSON.stringify(parts.contentType ?? '(none)')}: send the body as JSON with Content-Type: application/json`,
        },
      ],
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(parts.rawBody.toString('utf8'));
  } catch (error) {
    return {
      body: undefined,
      violations: [{ side: 'request', in: 'body', message: `Malformed JSON body: ${(error as Error).message}` }],
    };
  }
  const violations = spec.check(body).map((d): Violation => ({
    side: 'request',
    in: 'body',
    field: d.path || undefined,
    message: d.path ? `Body field "${d.path}" ${d.message}` : `Body ${d.message}`,
  }));
  return { body, violations };
}
