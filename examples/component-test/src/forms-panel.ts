/**
 * A panel of the forms agents wait on: those pending when it connects and those announced later on the event
 * stream, each with its fields and a Submit button that posts the reply and shows the API's refusal, if any.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';

// The official client has no form operations yet: the shapes of `GET /api/form/request`, as far as used here.
export interface FormField {
  key: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'multiselect';
  title: string;
  required?: boolean;
  default?: unknown;
  options?: { value: string; label: string }[];
}

export interface FormRequest {
  id: string;
  sessionID: string;
  title: string;
  mode: 'form' | 'url';
  url?: string;
  fields?: FormField[];
}

export interface FormsPanel {
  unmount(): void;
}

export function mountFormsPanel(root: HTMLElement, { baseUrl }: { baseUrl: string }): FormsPanel {
  const client = createOpencodeClient({ baseUrl });
  const controller = new AbortController();
  const shown = new Set<string>();

  function show(form: FormRequest): void {
    // Listed and announced both, across a reconnection: shown once.
    if (shown.has(form.id)) return;
    shown.add(form.id);
    const section = h('section', {}, { 'aria-label': form.title });
    section.append(h('h2', { textContent: form.title }));
    if (form.mode === 'url') section.append(h('a', { href: form.url ?? '', textContent: 'Open' }));
    else section.append(formElement(form, section));
    root.append(section);
  }

  async function showPending(): Promise<void> {
    const response = await fetch(`${baseUrl}/api/form/request`, { signal: controller.signal });
    const { data } = (await response.json()) as { data: FormRequest[] };
    data.forEach(show);
  }

  function formElement(form: FormRequest, section: HTMLElement): HTMLFormElement {
    const fields = (form.fields ?? []).map((field) => ({ field, control: control(field) }));
    const html = h('form');
    for (const { field, control } of fields) {
      const label = h('label', { textContent: field.title });
      label.append(control);
      html.append(label);
    }
    html.append(h('button', { type: 'submit', textContent: 'Submit' }));
    html.addEventListener('submit', (event) => {
      event.preventDefault();
      const answer = Object.fromEntries(fields.flatMap(({ field, control }) => entry(field, control)));
      void reply(form, answer)
        .catch((error: unknown) => String(error))
        .then((refusal) => {
          section.querySelector('[role=alert]')?.remove();
          if (refusal) section.append(h('p', { textContent: refusal }, { role: 'alert' }));
          else html.replaceWith(h('p', { textContent: 'Answered' }, { role: 'status' }));
        });
    });
    return html;
  }

  /** The refusal as the API words it (`_tag: message`), or undefined once the form is settled. */
  async function reply(form: FormRequest, answer: Record<string, unknown>): Promise<string | undefined> {
    const response = await fetch(`${baseUrl}/api/session/${form.sessionID}/form/${form.id}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer }),
    });
    if (response.ok) return undefined;
    const error = (await response.json().catch(() => ({}))) as { _tag?: string; message?: string };
    return `${error._tag ?? response.status}: ${error.message ?? response.statusText}`;
  }

  void (async () => {
    const { stream } = await client.v2.event.subscribe({ signal: controller.signal });
    // form.created is the simulator's own type (simEvents: true): the official client's event union lacks it.
    for await (const event of stream as AsyncIterable<{ type: string; data: unknown }>) {
      // Listed on every (re)connection, not once: the stream does not replay what appeared meanwhile.
      if (event.type === 'server.connected') await showPending();
      if (event.type === 'form.created') show((event.data as { form: FormRequest }).form);
      // form.replied and form.cancelled are not followed: a form settled elsewhere stays until its Submit is
      // refused, and the refusal says why.
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) root.append(h('p', { textContent: String(error) }, { role: 'alert' }));
  });

  return { unmount: () => controller.abort() };
}

function control(field: FormField): HTMLInputElement | HTMLSelectElement {
  const { key: name } = field;
  const required = field.required === true;
  if (field.type === 'boolean') return h('input', { type: 'checkbox', name, checked: field.default === true });
  if (!field.options) return h('input', { type: field.type === 'string' ? 'text' : 'number', name, required });
  const select = h('select', { name, required, multiple: field.type === 'multiselect' });
  if (!select.multiple) select.append(h('option', { value: '', textContent: 'Choose…' }));
  for (const { value, label } of field.options) select.append(h('option', { value, textContent: label }));
  return select;
}

/** The field's entry in the answer: none for an empty input, so optional fields stay out. */
function entry(field: FormField, control: HTMLInputElement | HTMLSelectElement): [string, unknown][] {
  if (control instanceof HTMLInputElement && control.type === 'checkbox') return [[field.key, control.checked]];
  if (control instanceof HTMLSelectElement && control.multiple)
    return [[field.key, [...control.selectedOptions].map((option) => option.value)]];
  if (control.value === '') return [];
  return [[field.key, field.type === 'string' ? control.value : Number(control.value)]];
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}
