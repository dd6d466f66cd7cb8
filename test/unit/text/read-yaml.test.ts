/**
 * The one YAML reader: values as the library builds them, problems with their offsets, and aliases bounded by
 * how much they expand, not by how often an anchor is named.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ALIAS_VALUES, readYaml, YamlTextError } from '../../../src/text/read-yaml.js';
import { billionLaughs, BOMB_REFUSAL } from '../../support/alias-bomb.js';

function refusal(text: string): { offset: number; message: string } {
  try {
    readYaml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(YamlTextError);
    return (error as YamlTextError).problems[0] as { offset: number; message: string };
  }
  throw new Error('expected the text to be refused');
}

describe('readYaml', () => {
  it('reads a document, JSON included, with anchors and aliases used as meant', () => {
    expect(readYaml('a: 1\nb: [x, {c: true}]\n').value).toEqual({ a: 1, b: ['x', { c: true }] });
    expect(readYaml('{"a": [1, 2]}').value).toEqual({ a: [1, 2] });
    const shared = readYaml('base: &base {model: gpt-5, temperature: 0}\none: *base\ntwo: *base\n').value;
    expect(shared).toEqual({
      base: { model: 'gpt-5', temperature: 0 },
      one: { model: 'gpt-5', temperature: 0 },
      two: { model: 'gpt-5', temperature: 0 },
    });
  });

  it('bounds what aliases expand to, not how often one is named', () => {
    // The library's own guard refuses a scalar anchor named 101 times; that expands to nothing worth refusing.
    const often = readYaml(`a: &a 1\nb: [${Array(500).fill('*a').join(', ')}]\n`).value as { b: number[] };
    expect(often.b).toHaveLength(500);
    // Each *x adds 99 values to the one it replaces: 1,000 of them add 99,000 (under), 1,100 add 108,900.
    const block = `[${Array(99).fill('0').join(', ')}]`;
    const named = (times: number) => `x: &x ${block}\ny: [${Array(times).fill('*x').join(', ')}]\n`;
    expect(MAX_ALIAS_VALUES).toBe(100_000);
    expect((readYaml(named(1000)).value as { y: unknown[] }).y).toHaveLength(1000);
    const over = named(1100);
    expect(refusal(over).message).toMatch(
      /^YAML: aliases would expand this document to [\d,]+ values, more than 100,000/,
    );
  });

  it('refuses an alias bomb before building any value, pointing at the alias that stands for the most', () => {
    const text = billionLaughs();
    const { offset, message } = refusal(text);
    expect(message).toBe(BOMB_REFUSAL);
    expect(text.slice(offset, offset + 2)).toBe('*h');
  });

  it('refuses an alias inside the value it names, and one that names no anchor', () => {
    const endless = 'a: &a [1, *a]\n';
    const cycle = refusal(endless);
    expect(cycle.message).toBe(
      'YAML: alias *a is inside the value &a it names, which would make that value endless: refused',
    );
    expect(cycle.offset).toBe(endless.indexOf('*a'));
    expect(refusal('a: *nowhere\n').message).toBe(
      'YAML: alias *nowhere names no anchor before it: anchor a value with &nowhere first',
    );
    // An anchor after its alias does not count, as the library resolves it.
    expect(refusal('a: *later\nb: &later 1\n').message).toMatch(/^YAML: alias \*later names no anchor before it/);
  });

  it('refuses text that is not one YAML document, each problem at its offset', () => {
    const text = 'a: [1, 2\nb: 3\n';
    const problem = refusal(text);
    expect(problem.message).toMatch(/^YAML: /);
    expect(problem.offset).toBeGreaterThan(0);
    expect(refusal('a: 1\n---\nb: 2\n').message).toMatch(/^YAML: Source contains multiple documents/);
  });
});
