import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  describeDiff,
  diffSpecs,
  isIdentical,
  simulationFits,
  type ShapeChange,
  type SpecDiff,
} from '../../../src/openapi/spec-diff.js';
import { OWN_SPEC, REAL_SPEC, writeNewerInterface } from '../../support/newer-interface.js';

type JsonObject = Record<string, unknown>;

/** A small document: one operation with a path parameter, a body, and a 200 answering a `Thing`. */
function doc(
  edit: (
    d: JsonObject & { paths: Record<string, Record<string, JsonObject>>; components: JsonObject },
  ) => void = () => {},
) {
  const d = {
    openapi: '3.1.0',
    paths: {
      '/api/thing/{thingID}': {
        post: {
          operationId: 'thing.update',
          parameters: [{ name: 'thingID', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', properties: { title: { type: 'string' } }, additionalProperties: false },
              },
            },
          },
          responses: {
            '200': {
              description: 'the thing',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            '400': {
              description: 'bad',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Bad' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          description: 'A thing',
          required: ['id', 'status'],
          properties: {
            id: { type: 'string' },
            status: { type: 'string', enum: ['open', 'closed'] },
            // Recursive: a thing's children are things.
            children: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
          },
        },
        Bad: {
          type: 'object',
          properties: { _tag: { const: 'Bad' }, kind: { type: ['string', 'null'] } },
        },
      },
    },
  };
  edit(d as never);
  return d as JsonObject;
}

const op = (d: JsonObject) =>
  (d.paths as Record<string, Record<string, JsonObject>>)['/api/thing/{thingID}']?.post as JsonObject;
const thing = (d: JsonObject) =>
  ((d.components as JsonObject).schemas as Record<string, JsonObject>).Thing as JsonObject & { properties: JsonObject };
const only = (diff: SpecDiff): ShapeChange[] => {
  expect(diff.changed).toHaveLength(1);
  return diff.changed[0]?.changes ?? [];
};

describe('diffSpecs', () => {
  it('finds nothing between a document and itself, nor where only documentation or $ref placement differs', () => {
    expect(isIdentical(diffSpecs(doc(), doc()))).toBe(true);
    const inlined = doc((d) => {
      const schema = structuredClone(thing(d));
      schema.description = 'other words';
      ((op(d).responses as JsonObject)['200'] as JsonObject).content = {
        'application/json': { schema, examples: { a: {} } },
      };
    });
    expect(isIdentical(diffSpecs(doc(), inlined))).toBe(true);
  });

  it('lists an operation added, removed, or moved under another path', () => {
    const moved = doc((d) => {
      d.paths['/api/box/{boxID}/thing/{thingID}'] = {
        post: {
          ...op(d),
          parameters: [
            { name: 'boxID', in: 'path', required: true, schema: { type: 'string' } },
            ...(op(d).parameters as JsonObject[]),
          ],
        },
      };
      delete d.paths['/api/thing/{thingID}'];
      d.paths['/api/box'] = { get: { operationId: 'box.list', responses: { '200': { description: 'ok' } } } };
    });
    const diff = diffSpecs(doc(), moved);
    expect(diff.added).toEqual([{ operationId: 'box.list', method: 'GET', path: '/api/box' }]);
    expect(diff.moved).toHaveLength(1);
    expect(diff.moved[0]).toMatchObject({
      operationId: 'thing.update',
      from: { method: 'POST', path: '/api/thing/{thingID}' },
      path: '/api/box/{boxID}/thing/{thingID}',
    });
    expect(diff.moved[0]?.changes).toEqual([
      expect.objectContaining({
        kind: 'parameter-added',
        effect: 'narrowed',
        message: 'path parameter boxID added (required)',
      }),
    ]);
    expect(diffSpecs(moved, doc()).removed.map((o) => o.operationId)).toEqual(['box.list']);
  });

  it('points at each shape change in the newer document and says whether it widens or narrows', () => {
    const changes = only(
      diffSpecs(
        doc(),
        doc((d) => {
          const t = thing(d);
          t.properties.note = { type: 'string' }; // optional property added
          t.required = ['id', 'status', 'size']; // required property added
          t.properties.size = { type: 'integer' };
          (t.properties.status as JsonObject).enum = ['open', 'closed', 'archived'];
        }),
      ),
    );
    expect(changes.map((c) => [c.side, c.kind, c.effect, c.pointer])).toEqual([
      ['response', 'enum', 'widened', '/components/schemas/Thing/properties/status'],
      ['response', 'property-added', 'widened', '/components/schemas/Thing/properties/note'],
      ['response', 'required-added', 'narrowed', '/components/schemas/Thing'],
    ]);
    expect(changes[2]?.message).toBe('200: property size added (required)');
  });

  it('reports request changes: parameters, the body, and its fields', () => {
    const changes = only(
      diffSpecs(
        doc(),
        doc((d) => {
          (op(d).parameters as JsonObject[]).push({ name: 'dry', in: 'query', schema: { type: 'boolean' } });
          const body = ((op(d).requestBody as JsonObject).content as Record<string, JsonObject>)[
            'application/json'
          ] as JsonObject;
          (body.schema as JsonObject & { properties: JsonObject }).properties.title = { type: 'integer' };
        }),
      ),
    );
    expect(changes.map((c) => `${c.side} ${c.kind} ${c.effect} ${c.message}`)).toEqual([
      'request parameter-added widened query parameter dry added',
      'request type changed type string → integer',
    ]);
  });

  it('ends on recursive schemas and reads a repeated union variant once', () => {
    const repeated = doc((d) => {
      ((op(d).responses as JsonObject)['400'] as JsonObject).content = {
        'application/json': {
          schema: { anyOf: [{ $ref: '#/components/schemas/Bad' }, { $ref: '#/components/schemas/Bad' }] },
        },
      };
      const children = thing(d).properties.children as JsonObject;
      children.items = { $ref: '#/components/schemas/Thing' };
    });
    expect(isIdentical(diffSpecs(doc(), repeated))).toBe(true);
  });
});

describe('simulationFits', () => {
  const change = (c: Partial<ShapeChange>): ShapeChange => ({
    side: 'response',
    kind: 'keyword',
    effect: 'changed',
    pointer: '',
    message: '',
    status: '200',
    ...c,
  });

  it('keeps a success response that only widens, and takes the simulation when it narrows or changes', () => {
    expect(simulationFits([change({ kind: 'property-added', effect: 'widened' })])).toBe(true);
    expect(simulationFits([change({ kind: 'required-added', effect: 'narrowed' })])).toBe(false);
    expect(simulationFits([change({ kind: 'type', effect: 'changed' })])).toBe(false);
  });

  it('leaves error responses to the answer check', () => {
    expect(simulationFits([change({ status: '400', kind: 'type', effect: 'narrowed' })])).toBe(true);
  });

  it('keeps a request that narrows or gains an optional input, not one that loses an input or widens', () => {
    const request = (c: Partial<ShapeChange>) => change({ side: 'request', status: undefined, ...c });
    expect(simulationFits([request({ kind: 'parameter-added', effect: 'narrowed' })])).toBe(true);
    expect(simulationFits([request({ kind: 'property-added', effect: 'widened' })])).toBe(true);
    expect(simulationFits([request({ kind: 'enum', effect: 'narrowed' })])).toBe(true);
    expect(simulationFits([request({ kind: 'enum', effect: 'widened' })])).toBe(false);
    expect(simulationFits([request({ kind: 'parameter-removed', effect: 'changed' })])).toBe(false);
    expect(simulationFits([request({ kind: 'property-removed', effect: 'narrowed' })])).toBe(false);
  });
});

describe('the simulator’s spec against newer versions', () => {
  const own = parse(readFileSync(OWN_SPEC, 'utf8')) as JsonObject;

  it('finds exactly what scripts/newer-interface.mjs changed', () => {
    const diff = diffSpecs(own, writeNewerInterface().document);
    expect(diff.added.map((o) => o.operationId)).toEqual(['v2.session.share']);
    expect(diff.removed.map((o) => o.operationId)).toEqual(['v2.skill.list']);
    expect(diff.moved.map((o) => [o.operationId, o.path, simulationFits(o.changes)])).toEqual([
      ['v2.integration.attempt.status', '/api/integration/{integrationID}/attempt/{attemptID}', true],
    ]);
    expect(diff.changed.map((o) => [o.operationId, simulationFits(o.changes)])).toEqual([
      ['v2.session.list', true],
      ['v2.pty.get', false],
    ]);
    expect(describeDiff(diff).at(-1)).toBe('91 → 91 operations: 1 added, 1 removed, 1 moved, 2 changed');
  });

  it("reads the real server's /doc as it is, and says a shared component's change once", () => {
    const diff = diffSpecs(own, JSON.parse(readFileSync(REAL_SPEC, 'utf8')) as JsonObject);
    // The interface document's own operations are not on the real server.
    expect(diff.removed.map((o) => o.operationId)).toContain('v2.session.synthetic');
    expect(diff.added).toEqual([]);
    const lines = describeDiff(diff);
    const shared = lines.filter((l) => l.includes('/components/schemas/InvalidRequestError/properties/kind'));
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatch(/^shared {3}response type null\|string → string \(narrowed\) at .*, in \d+ operations$/);
  });
});
