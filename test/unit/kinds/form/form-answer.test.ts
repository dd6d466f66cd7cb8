import { describe, expect, it } from 'vitest';
import { checkFormAnswer, isFieldActive, type FormField } from '../../../../src/kinds/form/form-answer.js';

const check = (fields: FormField[], answer: Record<string, unknown>) => checkFormAnswer({ fields }, answer);

const framework: FormField = {
  key: 'framework',
  type: 'string',
  required: true,
  options: [
    { value: 'react', label: 'React' },
    { value: 'vue', label: 'Vue' },
  ],
};
const sections: FormField = {
  key: 'sections',
  type: 'multiselect',
  options: [
    { value: 'profile', label: 'Profile' },
    { value: 'billing', label: 'Billing' },
    { value: 'notifications', label: 'Notifications' },
  ],
};
const tests: FormField = { key: 'tests', type: 'boolean' };
const coverage: FormField = {
  key: 'coverage',
  type: 'integer',
  minimum: 0,
  maximum: 100,
  when: [{ key: 'tests', op: 'eq', value: true }],
};

describe('checkFormAnswer', () => {
  it('accepts a full valid answer', () => {
    const fields: FormField[] = [
      framework,
      { ...sections, required: true, minItems: 1, maxItems: 2 },
      tests,
      { ...coverage, required: true },
      { key: 'reviewer', type: 'string', format: 'email' },
      { key: 'branch', type: 'string', pattern: '^feature/[a-z0-9-]+$', minLength: 9, maxLength: 40 },
      { key: 'budget', type: 'number', minimum: 0.5, maximum: 'Infinity' },
      { key: 'due', type: 'string', format: 'date' },
      { key: 'deployUrl', type: 'string', format: 'uri' },
      { key: 'startsAt', type: 'string', format: 'date-time' },
    ];
    expect(
      check(fields, {
        framework: 'react',
        sections: ['profile', 'billing'],
        tests: true,
        coverage: 85,
        reviewer: 'maria@acme.dev',
        branch: 'feature/settings-page',
        budget: 12.5,
        due: '2024-02-29',
        deployUrl: 'https://preview.acme.dev/pr/12',
        startsAt: '2026-03-01T09:30:00.250+01:00',
      }),
    ).toBeUndefined();
  });

  it('accepts an empty answer when every field is optional', () => {
    expect(check([tests, sections], {})).toBeUndefined();
  });

  it('answers "Unknown form field: colour" for a key the form does not declare', () => {
    expect(check([tests], { tests: true, colour: 'red' })).toBe('Unknown form field: colour');
  });

  it('reports an unknown key before a missing required field', () => {
    expect(check([framework], { colour: 'red' })).toBe('Unknown form field: colour');
  });

  it('reports failures in field order, the first one winning', () => {
    const fields: FormField[] = [
      { key: 'a', type: 'boolean', required: true },
      { key: 'b', type: 'boolean' },
    ];
    expect(check(fields, { b: 'yes' })).toBe('Missing required form field: a');
  });

  it('answers "Missing required form field: framework" when a required field is absent', () => {
    expect(check([framework], {})).toBe('Missing required form field: framework');
  });

  it('treats a required string answered with "" as missing', () => {
    expect(check([framework], { framework: '' })).toBe('Missing required form field: framework');
  });

  it('treats a required multiselect answered with [] as missing', () => {
    expect(check([{ ...sections, required: true }], { sections: [] })).toBe('Missing required form field: sections');
  });

  it('accepts an empty list for an optional multiselect without minItems', () => {
    expect(check([sections], { sections: [] })).toBeUndefined();
  });

  it('does not look up answer keys on the object prototype', () => {
    expect(check([{ key: 'constructor', type: 'string', required: true }], {})).toBe(
      'Missing required form field: constructor',
    );
  });

  it('answers "Form field is not active: coverage" when a field is answered while its condition is false', () => {
    expect(check([tests, coverage], { tests: false, coverage: 80 })).toBe('Form field is not active: coverage');
  });

  it('reports an inactive field before checking its value', () => {
    expect(check([tests, coverage], { tests: false, coverage: 'lots' })).toBe('Form field is not active: coverage');
  });

  it('does not require a required field whose condition is false', () => {
    expect(check([tests, { ...coverage, required: true }], { tests: false })).toBeUndefined();
  });

  it('requires a required field once its condition holds', () => {
    expect(check([tests, { ...coverage, required: true }], { tests: true })).toBe(
      'Missing required form field: coverage',
    );
  });

  it('cascades: a field hidden by its condition hides the fields that depend on it', () => {
    const fields: FormField[] = [
      tests,
      coverage,
      { key: 'strict', type: 'boolean', when: [{ key: 'coverage', op: 'neq', value: 0 }] },
    ];
    expect(check(fields, { tests: false, strict: true })).toBe('Form field is not active: strict');
  });

  it('answers "Expected string for form field: framework" for a non-string value', () => {
    expect(check([framework], { framework: 3 })).toBe('Expected string for form field: framework');
  });

  it('answers "Form field is too short: name" below minLength', () => {
    expect(check([{ key: 'name', type: 'string', minLength: 3 }], { name: 'ab' })).toBe(
      'Form field is too short: name',
    );
  });

  it('answers "Form field is too long: name" above maxLength', () => {
    expect(check([{ key: 'name', type: 'string', maxLength: 3 }], { name: 'abcd' })).toBe(
      'Form field is too long: name',
    );
  });

  it('accepts a string exactly at minLength and maxLength', () => {
    expect(check([{ key: 'name', type: 'string', minLength: 3, maxLength: 3 }], { name: 'abc' })).toBeUndefined();
  });

  it('answers "Form field does not match pattern: branch" when the pattern fails', () => {
    expect(check([{ key: 'branch', type: 'string', pattern: '^feature/[a-z0-9-]+$' }], { branch: 'main' })).toBe(
      'Form field does not match pattern: branch',
    );
  });

  it('matches an unanchored pattern anywhere in the value', () => {
    expect(
      check([{ key: 'ticket', type: 'string', pattern: '[A-Z]{2,4}-[0-9]+' }], { ticket: 'fixes ACME-12 today' }),
    ).toBeUndefined();
  });

  it('accepts identity escapes in a pattern, as a plain JavaScript RegExp does', () => {
    expect(check([{ key: 'mail', type: 'string', pattern: '^\\w+\\@acme$' }], { mail: 'maria@acme' })).toBeUndefined();
  });

  it('answers "Form field has invalid pattern: branch" when the pattern does not compile', () => {
    expect(check([{ key: 'branch', type: 'string', pattern: '([a-z' }], { branch: 'main' })).toBe(
      'Form field has invalid pattern: branch',
    );
  });

  it('answers "Expected email for form field: reviewer" for a malformed address', () => {
    const fields: FormField[] = [{ key: 'reviewer', type: 'string', format: 'email' }];
    expect(check(fields, { reviewer: 'maria at acme.dev' })).toBe('Expected email for form field: reviewer');
    expect(check(fields, { reviewer: 'maria@acme' })).toBe('Expected email for form field: reviewer');
  });

  it('answers "Expected URI for form field: deployUrl" for a value that is not an absolute URI', () => {
    const fields: FormField[] = [{ key: 'deployUrl', type: 'string', format: 'uri' }];
    expect(check(fields, { deployUrl: 'preview.acme.dev' })).toBe('Expected URI for form field: deployUrl');
    expect(check(fields, { deployUrl: 'mailto:maria@acme.dev' })).toBeUndefined();
  });

  it('answers "Expected date for form field: due" for 2026-02-30, which is not a calendar date', () => {
    expect(check([{ key: 'due', type: 'string', format: 'date' }], { due: '2026-02-30' })).toBe(
      'Expected date for form field: due',
    );
  });

  it('accepts 29 February only in a leap year', () => {
    const fields: FormField[] = [{ key: 'due', type: 'string', format: 'date' }];
    expect(check(fields, { due: '2024-02-29' })).toBeUndefined();
    expect(check(fields, { due: '2100-02-29' })).toBe('Expected date for form field: due');
    expect(check(fields, { due: '2000-02-29' })).toBeUndefined();
  });

  it('refuses dates not written as YYYY-MM-DD', () => {
    const fields: FormField[] = [{ key: 'due', type: 'string', format: 'date' }];
    expect(check(fields, { due: '2026-3-1' })).toBe('Expected date for form field: due');
    expect(check(fields, { due: '2026-03-01T00:00:00Z' })).toBe('Expected date for form field: due');
    expect(check(fields, { due: '2026-13-01' })).toBe('Expected date for form field: due');
  });

  it('answers "Expected date-time for form field: startsAt" for a value that is not RFC 3339', () => {
    const fields: FormField[] = [{ key: 'startsAt', type: 'string', format: 'date-time' }];
    expect(check(fields, { startsAt: '2026-03-01' })).toBe('Expected date-time for form field: startsAt');
    expect(check(fields, { startsAt: '2026-03-01T09:30:00' })).toBe('Expected date-time for form field: startsAt');
    expect(check(fields, { startsAt: '2026-02-30T09:30:00Z' })).toBe('Expected date-time for form field: startsAt');
    expect(check(fields, { startsAt: '2026-03-01T24:00:00Z' })).toBe('Expected date-time for form field: startsAt');
    expect(check(fields, { startsAt: '2026-03-01T09:30:00Z' })).toBeUndefined();
    expect(check(fields, { startsAt: '2026-03-01t09:30:00-05:00' })).toBeUndefined();
  });

  it('answers "Invalid option for form field: framework" for a value outside closed options', () => {
    expect(check([framework], { framework: 'svelte' })).toBe('Invalid option for form field: framework');
  });

  it('matches options by value, not by label', () => {
    expect(check([framework], { framework: 'React' })).toBe('Invalid option for form field: framework');
  });

  it('accepts a value outside the options when the string field allows custom values', () => {
    expect(check([{ ...framework, custom: true }], { framework: 'svelte' })).toBeUndefined();
  });

  it('checks length before pattern, pattern before format, and format before options', () => {
    const field: FormField = {
      key: 'contact',
      type: 'string',
      minLength: 5,
      pattern: '^[a-z@.]+$',
      format: 'email',
      options: [{ value: 'ops@acme.dev', label: 'Ops' }],
    };
    expect(check([field], { contact: 'A@b' })).toBe('Form field is too short: contact');
    expect(check([field], { contact: 'MARIA@ACME.DEV' })).toBe('Form field does not match pattern: contact');
    expect(check([field], { contact: 'maria.acme.dev' })).toBe('Expected email for form field: contact');
    expect(check([field], { contact: 'maria@acme.dev' })).toBe('Invalid option for form field: contact');
  });

  it('answers "Expected number for form field: budget" for a non-number', () => {
    expect(check([{ key: 'budget', type: 'number' }], { budget: '12' })).toBe('Expected number for form field: budget');
  });

  it('answers "Expected number" for a non-finite number', () => {
    expect(check([{ key: 'budget', type: 'number' }], { budget: Number.POSITIVE_INFINITY })).toBe(
      'Expected number for form field: budget',
    );
    expect(check([{ key: 'budget', type: 'number' }], { budget: Number.NaN })).toBe(
      'Expected number for form field: budget',
    );
  });

  it('answers "Expected number" for a non-number on an integer field', () => {
    expect(check([{ key: 'retries', type: 'integer' }], { retries: '3' })).toBe(
      'Expected number for form field: retries',
    );
  });

  it('answers "Expected integer for form field: retries" for a fractional number', () => {
    expect(check([{ key: 'retries', type: 'integer' }], { retries: 2.5 })).toBe(
      'Expected integer for form field: retries',
    );
  });

  it('accepts a fractional number on a number field', () => {
    expect(check([{ key: 'ratio', type: 'number', minimum: 0, maximum: 1 }], { ratio: 0.25 })).toBeUndefined();
  });

  it('answers "Form field is too small: coverage" below minimum', () => {
    expect(check([tests, coverage], { tests: true, coverage: -1 })).toBe('Form field is too small: coverage');
  });

  it('answers "Form field is too large: coverage" above maximum', () => {
    expect(check([tests, coverage], { tests: true, coverage: 101 })).toBe('Form field is too large: coverage');
  });

  it('accepts numbers exactly on the bounds', () => {
    expect(check([tests, coverage], { tests: true, coverage: 0 })).toBeUndefined();
    expect(check([tests, coverage], { tests: true, coverage: 100 })).toBeUndefined();
  });

  it('treats minimum "-Infinity" and maximum "Infinity" as unbounded', () => {
    const fields: FormField[] = [{ key: 'offset', type: 'number', minimum: '-Infinity', maximum: 'Infinity' }];
    expect(check(fields, { offset: -Number.MAX_VALUE })).toBeUndefined();
    expect(check(fields, { offset: Number.MAX_VALUE })).toBeUndefined();
  });

  it('ignores "NaN" bounds', () => {
    expect(
      check([{ key: 'workers', type: 'integer', minimum: 'NaN', maximum: 'NaN' }], { workers: 7 }),
    ).toBeUndefined();
  });

  it('refuses every finite value under a minimum of "Infinity", as the decoded bound implies', () => {
    expect(check([{ key: 'n', type: 'number', minimum: 'Infinity' }], { n: Number.MAX_VALUE })).toBe(
      'Form field is too small: n',
    );
  });

  it('answers "Expected boolean for form field: tests" for a non-boolean', () => {
    expect(check([tests], { tests: 'true' })).toBe('Expected boolean for form field: tests');
  });

  it('accepts false for a required boolean', () => {
    expect(check([{ ...tests, required: true }], { tests: false })).toBeUndefined();
  });

  it('answers "Expected string array for form field: sections" for a scalar or a mixed list', () => {
    expect(check([sections], { sections: 'profile' })).toBe('Expected string array for form field: sections');
    expect(check([sections], { sections: ['profile', 2] })).toBe('Expected string array for form field: sections');
  });

  it('answers "Too few selections for form field: sections" below minItems', () => {
    expect(check([{ ...sections, minItems: 2 }], { sections: ['profile'] })).toBe(
      'Too few selections for form field: sections',
    );
  });

  it('answers "Too many selections for form field: sections" above maxItems', () => {
    expect(check([{ ...sections, maxItems: 1 }], { sections: ['profile', 'billing'] })).toBe(
      'Too many selections for form field: sections',
    );
  });

  it('answers "Invalid option for form field: sections" for a selection outside the options', () => {
    expect(check([sections], { sections: ['profile', 'admin'] })).toBe('Invalid option for form field: sections');
  });

  it('accepts selections outside the options when the multiselect allows custom values', () => {
    expect(check([{ ...sections, custom: true }], { sections: ['profile', 'admin'] })).toBeUndefined();
  });

  it('counts selections before checking them against the options', () => {
    expect(check([{ ...sections, maxItems: 1 }], { sections: ['admin', 'root'] })).toBe(
      'Too many selections for form field: sections',
    );
  });
});

describe('isFieldActive', () => {
  it('is active when the field has no conditions', () => {
    expect(isFieldActive(tests, {})).toBe(true);
    expect(isFieldActive({ ...tests, when: [] }, {})).toBe(true);
  });

  it('is active for eq when the referenced answer equals the value', () => {
    expect(isFieldActive(coverage, { tests: true })).toBe(true);
    expect(isFieldActive(coverage, { tests: false })).toBe(false);
  });

  it('is active for neq when the referenced answer differs from the value', () => {
    const field: FormField = { key: 'reason', type: 'string', when: [{ key: 'framework', op: 'neq', value: 'react' }] };
    expect(isFieldActive(field, { framework: 'vue' })).toBe(true);
    expect(isFieldActive(field, { framework: 'react' })).toBe(false);
  });

  it('is inactive for both eq and neq when the referenced field is unanswered', () => {
    expect(
      isFieldActive({ key: 'x', type: 'boolean', when: [{ key: 'framework', op: 'eq', value: 'react' }] }, {}),
    ).toBe(false);
    expect(
      isFieldActive({ key: 'x', type: 'boolean', when: [{ key: 'framework', op: 'neq', value: 'react' }] }, {}),
    ).toBe(false);
  });

  it('compares strictly, without coercing between types', () => {
    const field: FormField = { key: 'x', type: 'boolean', when: [{ key: 'coverage', op: 'eq', value: 80 }] };
    expect(isFieldActive(field, { coverage: 80 })).toBe(true);
    expect(isFieldActive(field, { coverage: '80' })).toBe(false);
  });

  it('treats eq as "contains" and neq as "does not contain" against a list answer', () => {
    const eq: FormField = { key: 'x', type: 'boolean', when: [{ key: 'sections', op: 'eq', value: 'billing' }] };
    const neq: FormField = { key: 'x', type: 'boolean', when: [{ key: 'sections', op: 'neq', value: 'billing' }] };
    expect(isFieldActive(eq, { sections: ['profile', 'billing'] })).toBe(true);
    expect(isFieldActive(eq, { sections: ['profile'] })).toBe(false);
    expect(isFieldActive(neq, { sections: ['profile'] })).toBe(true);
    expect(isFieldActive(neq, { sections: ['profile', 'billing'] })).toBe(false);
  });

  it('counts an empty list answer as answered, so neq holds against it', () => {
    expect(
      isFieldActive(
        { key: 'x', type: 'boolean', when: [{ key: 'sections', op: 'neq', value: 'billing' }] },
        { sections: [] },
      ),
    ).toBe(true);
  });

  it('requires every condition to hold', () => {
    const field: FormField = {
      key: 'x',
      type: 'boolean',
      when: [
        { key: 'tests', op: 'eq', value: true },
        { key: 'framework', op: 'neq', value: 'vue' },
      ],
    };
    expect(isFieldActive(field, { tests: true, framework: 'react' })).toBe(true);
    expect(isFieldActive(field, { tests: true, framework: 'vue' })).toBe(false);
    expect(isFieldActive(field, { tests: true })).toBe(false);
  });

  it('lets the strings "NaN", "Infinity" and "-Infinity" stand for the non-finite numbers', () => {
    const on = (value: string): FormField => ({ key: 'x', type: 'boolean', when: [{ key: 'n', op: 'eq', value }] });
    expect(isFieldActive(on('NaN'), { n: Number.NaN })).toBe(true);
    expect(isFieldActive(on('Infinity'), { n: Number.POSITIVE_INFINITY })).toBe(true);
    expect(isFieldActive(on('-Infinity'), { n: Number.NEGATIVE_INFINITY })).toBe(true);
    expect(isFieldActive(on('Infinity'), { n: Number.NEGATIVE_INFINITY })).toBe(false);
    expect(isFieldActive(on('Infinity'), { n: 'Infinity' })).toBe(true);
  });
});
