import { fireEvent, screen, within } from '@testing-library/dom';
import { setupServer } from 'msw/node';
import { simulatorHandlers } from 'session-agent-sim/msw';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { formsApi, mountFormsPanel, type FormsPanel } from './forms-panel.js';

// form.created is the newer real server's event type: on the stream by default, though the client does not type it.
const sim = await simulatorHandlers({ scenario: 'forms-settling' });
const server = setupServer(...sim.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await sim.close();
});

let panels: FormsPanel[] = [];

/** A panel in a container of its own, as a browser tab would have it; its pending forms shown. */
async function mount(): Promise<HTMLElement> {
  const root = document.body.appendChild(document.createElement('div'));
  panels.push(mountFormsPanel(root, { baseUrl: sim.url }));
  // The panel lists the pending forms once its stream is connected: from here on, no event is missed.
  await within(root).findByRole('region', { name: 'Set up the new settings page' });
  return root;
}

function answer(root: HTMLElement, framework: string): HTMLElement {
  const form = within(root).getByRole('region', { name: 'Set up the new settings page' });
  fireEvent.change(within(form).getByLabelText('UI framework'), { target: { value: framework } });
  fireEvent.click(within(form).getByRole('button', { name: 'Submit' }));
  return form;
}

afterEach(async () => {
  // Streams closed before the reset, so that no panel sees the next test's world.
  panels.forEach((panel) => panel.unmount());
  panels = [];
  document.body.replaceChildren();
  await sim.reset();
});

it('shows the form that appears later, announced on the event stream', async () => {
  await mount();
  expect(screen.queryByRole('region', { name: 'Confirm the deploy preview' })).toBeNull();

  await sim.clock.advance('10s');

  const later = await screen.findByRole('region', { name: 'Confirm the deploy preview' });
  expect(within(later).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(
    'https://preview.acme.dev/confirm/8f2a',
  );
});

it('answers a pending form and shows it settled', async () => {
  const form = answer(await mount(), 'react');

  expect((await within(form).findByRole('status')).textContent).toBe('Answered');
  // The simulator agrees: a settled form is no longer listed.
  const { data } = await formsApi(sim.url).pending();
  expect(data?.data.map((pending) => pending.title)).not.toContain('Set up the new settings page');
});

it('shows the refusal when another tab answered the form first', async () => {
  const [first, second] = [await mount(), await mount()];
  await within(answer(first, 'react')).findByRole('status');

  const late = answer(second, 'vue');

  expect((await within(late).findByRole('alert')).textContent).toMatch(/^FormAlreadySettledError: /);
});
