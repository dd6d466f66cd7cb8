import { expect, it } from 'vitest';
import { loadSpec } from '../../../../src/openapi/openapi.js';
import { createRandom } from '../../../../src/state/random.js';
import { generateMessages } from '../../../../src/kinds/session/generate-messages.js';

it('generates messages of every kind it knows that the spec accepts', async () => {
  const spec = await loadSpec();
  const messages = generateMessages(createRandom('spec-check'), 400).map((m, i) => ({
    id: `msg_${String(i).padStart(26, '0')}`,
    time: { created: 1795338000000 + i },
    ...m,
  }));
  expect(new Set(messages.map((m) => m.type))).toEqual(
    new Set(['user', 'assistant', 'agent-switched', 'model-switched']),
  );
  expect(
    messages.flatMap((m) => spec.checkComponent('SessionMessage', m).map((d) => `${m.type}: ${d.path} ${d.message}`)),
  ).toEqual([]);
});
