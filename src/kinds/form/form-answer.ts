/**
 * Decides whether an answer to a form (`POST /api/session/{sessionID}/form/{formID}/reply`) is acceptable, the way
 * the real server does: the checks run in its order and the first failure's message becomes the
 * FormInvalidAnswerError message (real-server-notes §5).
 */

/** The wire spells non-finite numbers as strings, because JSON has no literal for them. */
export type FormNumberValue = number | 'NaN' | 'Infinity' | '-Infinity';

export interface FormOption {
  value: string;
  label: string;
  description?: string;
}

export interface FormWhen {
  key: string;
  op: 'eq' | 'neq';
  value: string | number | boolean;
}

interface FieldBase {
  key: string;
  title?: string;
  description?: string;
  required?: boolean;
  when?: FormWhen[];
}

interface StringField extends FieldBase {
  type: 'string';
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  placeholder?: string;
  default?: string;
  options?: FormOption[];
  custom?: boolean;
}

interface NumberField extends FieldBase {
  type: 'number';
  minimum?: FormNumberValue;
  maximum?: FormNumberValue;
  default?: FormNumberValue;
}

interface IntegerField extends FieldBase {
  type: 'integer';
  minimum?: FormNumberValue;
  maximum?: FormNumberValue;
  default?: FormNumberValue;
}

interface BooleanField extends FieldBase {
  type: 'boolean';
  default?: boolean;
}

interface MultiselectField extends FieldBase {
  type: 'multiselect';
  options: FormOption[];
  minItems?: number;
  maxItems?: number;
  custom?: boolean;
  default?: string[];
}

export type FormField = StringField | NumberField | IntegerField | BooleanField | MultiselectField;

export interface FormDefinitionFields {
  fields: FormField[];
}

/** Returns undefined when the answer is acceptable, else the message for FormInvalidAnswerError (first failure wins, in the real server's order). */
export function checkFormAnswer(form: FormDefinitionFields, answer: Record<string, unknown>): string | undefined {
  const known = new Set(form.fields.map((field) => field.key));
  // Every unknown key is reported before any field is looked at, so a typo never shows up as a missing field.
  for (const key of Object.keys(answer)) {
    if (!known.has(key)) return `Unknown form field: ${key}`;
  }
  for (const field of form.fields) {
    const value = answered(answer, field.key);
    const active = isFieldActive(field, answer);
    if (value === undefined) {
      if (field.required && active) return `Missing required form field: ${field.key}`;
      continue;
    }
    if (!active) return `Form field is not active: ${field.key}`;
    const invalid = checkValue(field, value);
    if (invalid !== undefined) return invalid;
  }
  return undefined;
}

/** Whether a field is active for this answer (all its `when` conditions hold). */
export function isFieldActive(field: FormField, answer: Record<string, unknown>): boolean {
  return (field.when ?? []).every((when) => conditionHolds(when, answer));
}

// Own properties only: a field keyed `constructor` or `toString` must not read the prototype as an answer.
function answered(answer: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(answer, key) ? answer[key] : undefined;
}

function conditionHolds(when: FormWhen, answer: Record<string, unknown>): boolean {
  const value = answered(answer, when.key);
  // Unanswered is false for `neq` too, so hiding a field also hides every field that depends on it.
  if (value === undefined) return false;
  const hit = Array.isArray(value) ? value.some((item) => sameValue(item, when.value)) : sameValue(value, when.value);
  return when.op === 'eq' ? hit : !hit;
}

const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]);

function sameValue(value: unknown, expected: string | number | boolean): boolean {
  if (value === expected) return true;
  if (typeof value !== 'number') return false;
  // A condition value of 'Infinity' may be the wire spelling of the number; Object.is also lets NaN equal NaN.
  const wanted = typeof expected === 'string' ? NON_FINITE.get(expected) : expected;
  return typeof wanted === 'number' && Object.is(value, wanted);
}

function checkValue(field: FormField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return checkString(field, value);
    case 'number':
    case 'integer':
      return checkNumber(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `Expected boolean for form field: ${field.key}`;
    case 'multiselect':
      return checkMultiselect(field, value);
  }
}

function checkString(field: StringField, value: unknown): string | undefined {
  const { key } = field;
  if (typeof value !== 'string') return `Expected string for form field: ${key}`;
  if (field.required && value.length === 0) return `Missing required form field: ${key}`;
  // Lengths count UTF-16 code units, as the real server's `.length` does (not code points as JSON Schema would).
  if (field.minLength !== undefined && value.length < field.minLength) return `Form field is too short: ${key}`;
  if (field.maxLength !== undefined && value.length > field.maxLength) return `Form field is too long: ${key}`;
  if (field.pattern !== undefined) {
    const matches = testPattern(field.pattern, value);
    if (matches === undefined) return `Form field has invalid pattern: ${key}`;
    if (!matches) return `Form field does not match pattern: ${key}`;
  }
  const format = field.format === undefined ? undefined : FORMATS[field.format];
  if (format && !format.test(value)) return `Expected ${format.name} for form field: ${key}`;
  if (field.options && !field.custom && !field.options.some((option) => option.value === value)) {
    return `Invalid option for form field: ${key}`;
  }
  return undefined;
}

// No `u` flag and no anchoring: the real server runs `new RegExp(pattern).test(value)`, so a pattern matches
// anywhere unless it anchors itself, and identity escapes such as `\@` stay legal.
function testPattern(pattern: string, value: string): boolean | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return undefined;
  }
  return regex.test(value);
}

const FORMATS: Record<NonNullable<StringField['format']>, { name: string; test: (value: string) => boolean }> = {
  // Deliberately loose, like the real server: something@something.tld with no whitespace.
  email: { name: 'email', test: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) },
  uri: { name: 'URI', test: (value) => URL.canParse(value) },
  date: { name: 'date', test: isDate },
  'date-time': { name: 'date-time', test: isDateTime },
};

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

// RFC 3339 `date-time`; a space instead of `T` is tolerated because the RFC's own note allows it.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [, year, month, day, hour, minute, second, offsetHour = '0', offsetMinute = '0'] = match;
  // Second 60 (a leap second) is refused because the real server's Date parsing refuses it too.
  return (
    isCalendarDate(Number(year), Number(month), Number(day)) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHour) <= 23 &&
    Number(offsetMinute) <= 59
  );
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

function checkNumber(field: NumberField | IntegerField, value: unknown): string | undefined {
  const { key } = field;
  // A non-number is "Expected number" even on an integer field: the real server checks number-ness first.
  if (typeof value !== 'number' || !Number.isFinite(value)) return `Expected number for form field: ${key}`;
  if (field.type === 'integer' && !Number.isInteger(value)) return `Expected integer for form field: ${key}`;
  // Comparing against the decoded bound gives the wire strings their meaning: ±Infinity on the open side never
  // fails, and NaN fails every comparison, so a 'NaN' bound is ignored.
  if (field.minimum !== undefined && value < Number(field.minimum)) return `Form field is too small: ${key}`;
  if (field.maximum !== undefined && value > Number(field.maximum)) return `Form field is too large: ${key}`;
  return undefined;
}

function checkMultiselect(field: MultiselectField, value: unknown): string | undefined {
  const { key } = field;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    return `Expected string array for form field: ${key}`;
  }
  if (field.required && value.length === 0) return `Missing required form field: ${key}`;
  if (field.minItems !== undefined && value.length < field.minItems) return `Too few selections for form field: ${key}`;
  if (field.maxItems !== undefined && value.length > field.maxItems)
    return `Too many selections for form field: ${key}`;
  if (!field.custom && value.some((item) => !field.options.some((option) => option.value === item))) {
    return `Invalid option for form field: ${key}`;
  }
  return undefined;
}
