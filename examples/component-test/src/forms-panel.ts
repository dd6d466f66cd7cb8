/**
 * A panel of the forms agents wait on: those pending when it connects and those announced later on the event
 * stream, each with its fields and a Submit button that posts the reply and shows the API's refusal, if any.
 * Every request goes through the official client (`@opencode-ai/sdk`), as an app's would.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { createClient } from '@opencode-ai/sdk/v2/gen/client';

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

/** An error of the API: its `_tag` and what it says. */
interface ApiError {
  _tag?: string;
  message?: string;
}

export interface FormsPanel {
  unmount(): void;
}

/**
 * The form operations through the official client's HTTP client (the one its generated methods send with),
 * as the methods it will have would send them: a JSON body, under `Content-Type` as the client writes it.
 */
export function formsApi(baseUrl: string) {
  const http = createClient({ baseUrl });
  return {
    pending: (signal?: AbortSignal) =>
      http.get<{ 200: { data: FormRequest[] } }, ApiError>({ url: '/api/form/request', signal }),
    reply: (form: FormRequest, answer: Record<string, unknown>) =>
      http.post<{ 204: void }, ApiError>({
        url: '/api/session/{sessionID}/form/{formID}/reply',
        path: { sessionID: form.sessionID, formID: form.id },
        body: { answer },
        headers: { 'Content-Type': 'application/json' },
      }),
  };
}

export function mountFormsPanel(root: HTMLElement, { baseUrl }: { baseUrl: string }): FormsPanel {
  const client = createOpencodeClient({ baseUrl });
  const forms = formsApi(baseUrl);
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
    const { data, error } = await forms.pending(controller.signal);
    if (error) throw new Error(refusal(error));
    data.data.forEach(show);
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
    const { error } = await forms.reply(form, answer);
    return error ? refusal(error) : undefined;
  }

  void (async () => {
    const { stream } = await client.v2.event.subscribe({ signal: controller.signal });
    // form.created comes from the newer real server: on the stream by default, but the client's event union lacks it.
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

function refusal(error: ApiError): string {
  return `${error._tag ?? 'Error'}: ${error.message ?? JSON.stringify(error)}`;
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
