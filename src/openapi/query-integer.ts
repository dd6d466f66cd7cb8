/**
 * A whole-number query value (`limit`, `after`) as the real server decodes it: text that is no integer, or one
 * below the least it takes, answers 400 InvalidRequestError kind Query with its messages
 * (`Expected an integer, got NaN\n  at ["limit"]`).
 */
import { InvalidRequestError } from '../errors/errors.js';

export function queryInteger(raw: unknown, name: string, least: 0 | 1): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  const fail = (message: string) => new InvalidRequestError(`${message}\n  at ["${name}"]`, 'Query', name);
  if (!Number.isInteger(value)) throw fail(`Expected an integer, got ${value}`);
  if (value < least) throw fail(`Expected a value greater than ${least === 1 ? '0' : 'or equal to 0'}, got ${value}`);
  return value;
}
