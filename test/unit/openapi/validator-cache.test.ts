import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../../src/openapi/ajv.js';
import { loadSpec, resolvePointer, type SpecIndex } from '../../../src/openapi/openapi.js';
import { cachedCompiler } from '../../../src/openapi/validator-cache.js';

type JsonObject = Record<string, unknown>;
const OPTIONS = { strict: false, allErrors: true, validateFormats: true, verbose: true, validateSchema: false };

let spec: SpecIndex;
let root: string;
beforeAll(async () => {
  spec = await loadSpec();
  root = `${mkdtempSync(join(tmpdir(), 'sim-validators-'))}/`;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function specAjv(): Ajv2020 {
  const ajv = createAjv({ ...OPTIONS, code: { source: true } });
  ajv.addSchema(spec.document, 'spec');
  return ajv;
}

const refuse = (): never => {
  throw new Error('compiled, though every validator should have come from disk');
};

/** Every body schema of the spec, with the example values the spec gives for it. */
function bodySchemas(): { key: string; schema: JsonObject; examples: unknown[] }[] {
  const out: { key: string; schema: JsonObject; examples: unknown[] }[] = [];
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const op of spec.operations) {
    const at = `#/paths/${escape(op.path)}/${op.method.toLowerCase()}`;
    const raw = resolvePointer(spec.document, at);
    const media: [string, JsonObject | undefined][] = Object.entries((raw.responses as JsonObject) ?? {}).map(
      ([code, r]) => [
        `${at}/responses/${code}`,
        ((r as JsonObject).content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined,
      ],
    );
    const body = raw.requestBody as JsonObject | undefined;
    if (body && !body.$ref)
      media.push([`${at}/requestBody`, (body.content as JsonObject)['application/json'] as JsonObject]);
    for (const [pointer, content] of media) {
      if (!content || (content.$ref as unknown)) continue;
      const examples = Object.values((content.examples as Record<string, JsonObject>) ?? {}).map((e) =>
        e.$ref ? resolvePointer(spec.document, e.$ref as string).value : e.value,
      );
      const key = `spec${pointer}/content/application~1json/schema`;
      out.push({ key, schema: { $ref: key }, examples });
    }
  }
  return out;
}

/** The example, a few wrong shapes, an extra field, and each top-level field given the wrong type. */
function probes(examples: unknown[]): unknown[] {
  const out: unknown[] = [...examples, {}, [], null, 'text', 42];
  for (const example of examples) {
    if (typeof example !== 'object' || example === null || Array.isArray(example)) continue;
    out.push({ ...example, notAField: true });
    for (const [name, value] of Object.entries(example))
      out.push({ ...example, [name]: typeof value === 'string' ? 7 : 'x' });
  }
  return out;
}

describe('cachedCompiler', () => {
  it('answers from disk exactly as ajv compiles, for every body schema of the spec', () => {
    const schemas = bodySchemas();
    expect(schemas.length).toBeGreaterThan(200);
    let built = 0;
    const first = cachedCompiler(spec.hash, 'all', () => (built++, specAjv()), root);
    const compiled = schemas.map(({ key, schema }) => first(key, schema));
    expect(built).toBeGreaterThan(0);
    const second = cachedCompiler(spec.hash, 'all', refuse, root);
    let compared = 0;
    let refused = 0;
    schemas.forEach(({ key, schema, examples }, i) => {
      const fromDisk = second(key, schema);
      const reference = compiled[i] as (typeof compiled)[number];
      expect(fromDisk).not.toBe(reference);
      for (const value of probes(examples)) {
        const valid = reference(value);
        expect(fromDisk(value)).toBe(valid);
        expect(JSON.stringify(fromDisk.errors)).toBe(JSON.stringify(reference.errors));
        compared++;
        if (!valid) refused++;
      }
    });
    // The probes must exercise both verdicts: a comparison of only passing values would prove little.
    expect(compared).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(compared / 2);
  });

  it('compiles again, and keeps the new code, when a file on disk will not load', () => {
    const key = 'spec#/components/schemas/SessionNotFoundError';
    const schema = { $ref: key };
    cachedCompiler(spec.hash, 'damaged', specAjv, root)(key, schema);
    const [folder] = readdirSync(root).filter((name) => name.startsWith('validators-'));
    const before = readdirSync(root);
    for (const name of readdirSync(root)) {
      if (!name.startsWith('validators-')) continue;
      for (const file of readdirSync(`${root}${name}`)) writeFileSync(`${root}${name}/${file}`, 'module.exports = ');
    }
    let built = 0;
    const validate = cachedCompiler(spec.hash, 'damaged', () => (built++, specAjv()), root)(key, schema);
    expect(built).toBe(1);
    expect(validate({})).toBe(false);
    expect(readdirSync(root)).toEqual(before);
    expect(cachedCompiler(spec.hash, 'damaged', refuse, root)(key, schema)({})).toBe(false);
    expect(folder).toMatch(/^validators-[0-9a-f]{16}$/);
  });

  it('keeps the newest four folders of other specs or builds, and removes the rest', () => {
    const own = `${mkdtempSync(join(tmpdir(), 'sim-validators-prune-'))}/`;
    try {
      for (let i = 0; i < 7; i++) {
        mkdirSync(`${own}validators-old${i}`);
        const when = new Date(Date.UTC(2026, 0, 1 + i));
        utimesSync(`${own}validators-old${i}`, when, when);
      }
      writeFileSync(`${own}spec-unrelated.json`, '{}');
      const key = 'spec#/components/schemas/SessionNotFoundError';
      cachedCompiler(spec.hash, 'prune', specAjv, own)(key, { $ref: key });
      const left = readdirSync(own).sort();
      expect(left.filter((name) => name.startsWith('validators-old'))).toEqual([
        'validators-old3',
        'validators-old4',
        'validators-old5',
        'validators-old6',
      ]);
      expect(left).toContain('spec-unrelated.json');
      expect(left.filter((name) => /^validators-[0-9a-f]{16}$/.test(name))).toHaveLength(1);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('validates without a cache when the folder cannot be written', () => {
    const file = join(root, 'not-a-folder');
    writeFileSync(file, '');
    const key = 'spec#/components/schemas/SessionNotFoundError';
    const validate = cachedCompiler(spec.hash, 'unwritable', specAjv, `${file}/`)(key, { $ref: key });
    expect(validate({})).toBe(false);
    expect(validate.errors?.length).toBeGreaterThan(0);
  });
});
