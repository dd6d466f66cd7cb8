/**
 * Prism's per-request controls, read from the `Prefer` header (`code=404, example=notFound, dynamic=true`)
 * and checked against the operation up front, so a typo gets a hint instead of a wrong answer.
 */
import { SimPreferenceError } from '../errors/errors.js';
import { closest, didYouMean } from '../text/closest.js';
import type { OperationDefinition } from '../openapi/openapi.js';

export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
}

export function readPreferences(header: string | undefined, operation: OperationDefinition): Preferences {
  if (!header) return {};
  const prefs: Preferences = {};
  for (const part of header.split(/[,;]/)) {
    const [rawKey, ...rest] = part.split('=');
    const key = rawKey?.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (key === 'code') prefs.code = parseCode(value, operation);
    else if (key === 'example') prefs.example = value;
    else if (key === 'dynamic') prefs.dynamic = parseBoolean(value);
    else if (key) checkUnknown(key, value);
  }
  if (prefs.example !== undefined) checkExample(prefs.example, prefs.code ?? operation.successStatus, operation);
  return prefs;
}

const CONTROLS = ['code', 'example', 'dynamic'];

/**
 * RFC 7240 lets a client send preferences a server does not know, and the server ignore them: the standard
 * ones (and those other services define) are not the simulator's to interpret, and pass unread whatever
 * they are near.
 */
const STANDARD = new Set(['respond-async', 'return', 'wait', 'handling', 'safe', 'depth-noroot']);

/**
 * A preference the simulator does not read. One a slip away from a control (`cod=409`, `exmple=x`) was meant
 * as that control: ignored, it would leave the answer unsteered with nothing said, so it is refused the way a
 * misspelt example is. Anything further from a control is someone else's preference, and passes.
 */
function checkUnknown(key: string, value: string): void {
  if (STANDARD.has(key)) return;
  const near = closest(key, CONTROLS);
  if (near === undefined) return;
  throw new SimPreferenceError(
    `Prefer: ${value === '' ? key : `${key}=${value}`} is not a control the simulator knows. Did you mean ${JSON.stringify(near)}?`,
    'Its controls: code=STATUS, example=NAME, dynamic=true|false; preferences other than these (return=minimal, respond-async, wait=10, handling=lenient) are ignored',
  );
}

function parseCode(value: string, operation: OperationDefinition): number {
  const code = Number(value);
  if (!operation.responses.has(code)) {
    throw new SimPreferenceError(
      `Prefer: code=${value} is not a status ${operation.operationId} declares`,
      `Declared statuses: ${[...operation.responses.keys()].join(', ')}`,
    );
  }
  return code;
}

function parseBoolean(value: string): boolean {
  if (value === 'true' || value === '') return true;
  if (value === 'false') return false;
  throw new SimPreferenceError(`Prefer: dynamic=${value} is not a boolean`, 'Use dynamic=true or dynamic=false');
}

function checkExample(name: string, code: number, operation: OperationDefinition): void {
  const names = operation.responses.get(code)?.exampleNames ?? [];
  if (!names.includes(name)) {
    const near = didYouMean(name, names).trimStart();
    throw new SimPreferenceError(
      `Prefer: example=${name} is not an example of ${operation.operationId} status ${code}`,
      names.length
        ? `${near ? `${near} ` : ''}Examples for status ${code}: ${names.join(', ')}`
        : `Status ${code} has no examples`,
    );
  }
}
