import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../../src/kinds/catalog.js';
import type { Kind } from '../../../src/kinds/kind.js';

const decline = () => undefined;
const leave = () => undefined;

describe('catalogOf', () => {
  it('refuses two kinds that handle one operation, naming both and the operationId', () => {
    const one: Kind = { name: 'one', handlers: { 'v2.thing.get': decline } };
    const two: Kind = { name: 'two', handlers: { 'v2.thing.get': decline } };
    expect(() => catalogOf([one, two])).toThrow('Kinds one and two both claim the operation v2.thing.get');
  });

  it('refuses two kinds that apply one event type', () => {
    const one = { name: 'one', handlers: {}, appliers: { 'thing.made': leave } } as unknown as Kind;
    const two = { name: 'two', handlers: {}, appliers: { 'thing.made': leave } } as unknown as Kind;
    expect(() => catalogOf([one, two])).toThrow('Kinds one and two both claim the event type thing.made');
  });

  it('refuses an operation one kind handles and another streams', () => {
    const one: Kind = { name: 'one', handlers: { 'v2.thing.watch': decline } };
    const two: Kind = { name: 'two', handlers: {}, streams: { 'v2.thing.watch': decline } };
    expect(() => catalogOf([one, two])).toThrow('Kinds one and two both claim the operation v2.thing.watch');
  });

  it('gathers what distinct kinds claim', () => {
    const one: Kind = { name: 'one', handlers: { 'v2.a': decline } };
    const two: Kind = { name: 'two', handlers: { 'v2.b': decline } };
    expect(Object.keys(catalogOf([one, two]).handlers)).toEqual(['v2.a', 'v2.b']);
  });
});
