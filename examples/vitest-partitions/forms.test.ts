import { beforeEach, expect, it } from 'vitest';
import { sim } from './sim.js';

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const FORM = 'frm_203a7c0e2001Ab3dEf4GhIjKlM';

beforeEach(() => sim.reset());

it('settles a form on a valid reply and refuses a second one', async () => {
  const reply = () =>
    fetch(`${sim.url}/api/session/${SES}/form/${FORM}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer: { framework: 'react', tests: false } }),
    });
  expect((await reply()).status).toBe(204);
  expect((await reply()).status).toBe(409);
});

it('shows the form that appears after 10 s of virtual time', async () => {
  await sim.clock.advance('10s');
  const { data } = (await (await fetch(`${sim.url}/api/form/request`)).json()) as { data: Array<{ id: string }> };
  expect(data.map((f) => f.id)).toContain('frm_203a7d0000010LaterFormAbCd');
});
