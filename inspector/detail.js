// The whole of one exchange: its journal line (who answered, the rule, what it changed, what broke the
// spec) and both sides in full, as the simulator kept them (secrets already masked there).
import { clear, h, iso, jsonBlock, kvTable, statusClass, violationPlace } from './dom.js';

export function renderDetail(container, summary, detail) {
  clear(container);
  const status = detail?.response.status ?? summary?.status;
  const method = detail?.request.method ?? summary?.method ?? '';
  const path = detail?.request.path ?? summary?.path ?? '';
  container.append(
    h(
      'header',
      { class: 'detail-head' },
      h('span', { class: `mono method m-${method.toLowerCase()}` }, method),
      h('span', { class: 'mono path' }, path),
      status === undefined
        ? null
        : h('span', { class: `status-pill ${statusClass(status)}` }, status === 0 ? 'dropped' : String(status)),
      h('span', { class: 'mono muted' }, detail?.id ?? summary?.id ?? ''),
      h(
        'button',
        {
          type: 'button',
          class: 'icon close',
          'data-action': 'close-detail',
          'aria-label': 'Close the exchange (Esc)',
          title: 'Close (Esc)',
        },
        '✕',
      ),
    ),
  );
  if (summary) container.append(summaryBlock(summary));
  // Opened from elsewhere (an event's cause) with no journal line at hand: the exchange carries its own.
  else if (detail?.violations?.length)
    container.append(h('div', { class: 'summary' }, violationsBlock(detail.violations)));
  if (!detail) return;
  const query = Object.keys(detail.request.query).length ? detail.request.query : undefined;
  container.append(
    h(
      'div',
      { class: 'sides' },
      h(
        'section',
        { class: 'side-block', 'aria-label': 'Request' },
        h('h3', null, 'Request'),
        h(
          'p',
          { class: 'mono line' },
          `${detail.request.method} ${detail.request.path}${query ? `?${new URLSearchParams(flat(query)).toString()}` : ''}`,
        ),
        query ? [h('h4', null, 'Query'), kvTable(query, '')] : null,
        h('h4', null, 'Body'),
        body(detail.request.body, 'No body'),
        h('h4', null, 'Headers'),
        kvTable(detail.request.headers, 'No headers'),
      ),
      h(
        'section',
        { class: 'side-block', 'aria-label': 'Response' },
        h('h3', null, 'Response'),
        h(
          'p',
          { class: 'mono line' },
          detail.response.status === 0
            ? 'Connection dropped, no answer'
            : `${detail.response.status} · ${detail.response.kind}`,
        ),
        h('h4', null, 'Body'),
        body(
          detail.response.body,
          detail.response.kind === 'stream'
            ? 'A stream, written as it came: not kept'
            : detail.response.kind === 'drop'
              ? 'None: the connection was dropped'
              : 'No body',
        ),
        h('h4', null, 'Headers'),
        kvTable(
          detail.response.headers,
          detail.response.kind === 'drop' ? 'None: the connection was dropped' : 'No headers',
        ),
      ),
    ),
  );
}

export function renderDetailError(container, summary, error) {
  renderDetail(container, summary, undefined);
  container.append(
    h(
      'p',
      { class: 'notice bad' },
      `${error.tag ? `${error.tag}: ` : ''}${error.message}`,
      error.hint ? h('span', { class: 'hint' }, error.hint) : null,
    ),
  );
}

function flat(query) {
  return Object.entries(query).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]],
  );
}

function summaryBlock(summary) {
  const rows = [
    ['Time', iso(summary.time)],
    ['Operation', summary.operationId ?? '— (no operation of the spec)'],
    ['Answered by', summary.layer],
    summary.tag ? ['Error', summary.tag] : null,
    summary.rule ? ['Rule', summary.rule] : null,
    summary.outsideSpec
      ? ['Outside the spec', 'yes: the rule says outsideSpec: true, so its answer was not checked']
      : null,
    // Why a rule written for this operation did not answer: the question a test asks first.
    summary.nearMiss ? ['Near miss', `${summary.nearMiss.rule}: ${summary.nearMiss.failed}`] : null,
  ].filter(Boolean);
  return h(
    'div',
    { class: 'summary' },
    h(
      'dl',
      null,
      rows.map(([name, value]) => [h('dt', null, name), h('dd', { class: 'mono' }, value)]),
    ),
    summary.changes?.length
      ? h(
          'div',
          { class: 'changes-list' },
          h('h4', null, 'Changed'),
          h(
            'ul',
            null,
            summary.changes.map((c) => h('li', { class: 'mono' }, c)),
          ),
        )
      : null,
    summary.violations?.length ? violationsBlock(summary.violations) : null,
  );
}

/** Each violation with where it is (side, place, field) before what is wrong. */
function violationsBlock(violations) {
  return h(
    'div',
    { class: 'violations-list' },
    h('h4', null, `Spec violations (${violations.length})`),
    h(
      'ul',
      null,
      violations.map((v) => h('li', null, h('span', { class: 'mono viol-place' }, violationPlace(v)), ' ', v.message)),
    ),
  );
}

function body(view, none) {
  if (!view) return h('p', { class: 'muted small' }, none);
  const size = view.size === undefined ? '' : `${view.size.toLocaleString()} bytes`;
  const note = view.truncated
    ? h('p', { class: 'muted small' }, `${size}; only the first 64 KB are kept`)
    : size
      ? h('p', { class: 'muted small' }, size)
      : null;
  if ('json' in view) return [jsonBlock(view.json), note];
  return [h('pre', { class: 'json' }, view.text ?? ''), note];
}
