// The side panels: the scenario's resources and their states now, the log's domain events and control
// actions, and coverage (what this partition's traffic has touched, and what it never has).
import { clear, describeEntry, h, iso, pill, relative, stateClass, timeOfDay, violationPlace } from './dom.js';

function section(title, count, body) {
  return h(
    'section',
    { class: 'res', 'aria-label': title },
    h('h3', null, title, h('span', { class: 'count' }, String(count))),
    count ? body : h('p', { class: 'muted small none' }, 'none'),
  );
}

/** Column names; `name:n` is a narrow number column, `name:w` a wider one, `name:s` a state column. */
function table(head, rows) {
  const th = (spec) => {
    const [name, width] = spec.split(':');
    return h('th', { scope: 'col', class: width }, name);
  };
  return h('table', { class: 'grid' }, h('thead', null, h('tr', null, head.map(th))), h('tbody', null, rows));
}

const id = (text) => h('td', { class: 'mono id', title: text }, text);

export function renderState(container, state) {
  clear(container);
  if (!state.sessions) {
    container.append(
      h(
        'p',
        { class: 'muted pad' },
        'No scenario is served in this partition: the spec’s examples answer every request.',
      ),
    );
    return;
  }
  const now = state.now;
  const sessions = state.sessions ?? [];
  const forms = state.forms ?? [];
  const shells = state.shells ?? [];
  const attempts = state.attempts ?? [];
  const integrations = state.integrations ?? [];
  const ptys = state.ptys ?? [];
  const timers = state.timers ?? [];
  const rules = state.rules ?? [];
  container.append(
    section(
      'Sessions',
      sessions.length,
      table(
        ['id', 'state:s', 'msgs:n', 'questions:w'],
        sessions.map((s) =>
          h(
            'tr',
            null,
            id(s.id),
            h('td', null, pill(s.state, stateClass(s.state))),
            h('td', { class: 'num' }, String(s.messages)),
            h('td', { class: 'num' }, String(s.pendingQuestions?.length ?? 0)),
          ),
        ),
      ),
    ),
    section(
      'Forms',
      forms.length,
      table(
        ['id', 'state:s', 'session:w'],
        forms.map((f) =>
          h(
            'tr',
            { title: f.answer ? `answer: ${JSON.stringify(f.answer)}` : undefined },
            id(f.id),
            h('td', null, pill(f.state, stateClass(f.state))),
            id(f.sessionID),
          ),
        ),
      ),
    ),
    section(
      'Shells',
      shells.length,
      table(
        ['id', 'state:s', 'deadline:w'],
        shells.map((sh) =>
          h(
            'tr',
            null,
            id(sh.id),
            h('td', null, pill(sh.state, stateClass(sh.state))),
            h(
              'td',
              { class: 'mono', title: sh.deadline === null ? 'no timeout' : iso(sh.deadline) },
              sh.deadline === null || sh.state !== 'running' ? '—' : relative(sh.deadline, now),
            ),
          ),
        ),
      ),
    ),
    section(
      'OAuth attempts',
      attempts.length,
      table(
        ['id', 'state:s', 'integration:w', 'polls:n'],
        attempts.map((a) =>
          h(
            'tr',
            null,
            id(a.id),
            h('td', null, pill(a.state, stateClass(a.state))),
            h('td', { class: 'mono' }, a.integrationID),
            h('td', { class: 'num' }, String(a.polls)),
          ),
        ),
      ),
    ),
    section(
      'Integrations',
      integrations.length,
      table(
        ['id', 'connections'],
        integrations.map((i) =>
          h(
            'tr',
            null,
            h('td', { class: 'mono' }, i.id),
            h(
              'td',
              { class: i.connections.length ? '' : 'muted' },
              i.connections.length ? i.connections.map((c) => c.label ?? c.id ?? c.type).join(', ') : 'not connected',
            ),
          ),
        ),
      ),
    ),
    section(
      'PTYs',
      ptys.length,
      table(
        ['id', 'state:s', 'exit:n'],
        ptys
          .map((p) => (typeof p === 'string' ? { id: p } : p))
          .map((p) =>
            h(
              'tr',
              null,
              id(p.id),
              h('td', null, p.state ? pill(p.state, stateClass(p.state)) : ''),
              h('td', { class: 'num' }, p.exitCode ?? ''),
            ),
          ),
      ),
    ),
    ...others(state),
    section(
      'Scheduled',
      timers.length,
      table(
        ['what', 'when:w'],
        timers.map((t) =>
          h(
            'tr',
            null,
            h('td', { class: 'mono id', title: t.key }, t.key),
            h('td', { class: 'mono', title: iso(t.at) }, relative(t.at, now)),
          ),
        ),
      ),
    ),
    section(
      'Rules',
      rules.length,
      table(
        ['where', 'operation', 'fired:n'],
        rules.map((r) =>
          h(
            'tr',
            null,
            h('td', { class: 'mono id', title: r.where }, r.where),
            h('td', { class: 'mono id', title: r.operation }, r.operation),
            h('td', { class: 'num' }, r.times === null ? String(r.fired) : `${r.fired}/${r.times}`),
          ),
        ),
      ),
    ),
  );
}

const KNOWN = new Set([
  'partition',
  'scenario',
  'now',
  'iso',
  'realTime',
  'sessions',
  'forms',
  'shells',
  'attempts',
  'integrations',
  'ptys',
  'rules',
  'timers',
]);

/** Resources this page does not know by name yet: shown plainly rather than left out. */
function others(state) {
  return Object.entries(state)
    .filter(([key, value]) => !KNOWN.has(key) && Array.isArray(value))
    .map(([key, items]) => {
      const objects = items.map((item) => (typeof item === 'object' && item !== null ? item : { value: item }));
      const columns = [...new Set(objects.flatMap((o) => Object.keys(o)))].slice(0, 4);
      const cell = (value, column) => {
        if (column === 'state' && typeof value === 'string') return h('td', null, pill(value, stateClass(value)));
        const text = value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
        return h('td', { class: 'mono id', title: text }, text);
      };
      const title = key.charAt(0).toUpperCase() + key.slice(1);
      return section(
        title,
        items.length,
        table(
          columns,
          objects.map((o) =>
            h(
              'tr',
              null,
              columns.map((c) => cell(o[c], c)),
            ),
          ),
        ),
      );
    });
}

export function createEvents(list, empty, { onOpenRequest }) {
  let count = 0;
  const wrap = list.parentElement;
  const render = (entry) => {
    const { name, subject, change } = describeEntry(entry);
    const cause = entry.cause;
    const kind = entry.kind === 'control' ? `control ctl-${entry.action.replace('.', '-')}` : 'event';
    return h(
      'li',
      { class: kind },
      h('span', { class: 'mono time', title: iso(entry.time) }, timeOfDay(entry.time)),
      h(
        'span',
        { class: 'what' },
        h('span', { class: 'mono name' }, name),
        change ? h('span', { class: 'change' }, change) : null,
        subject ? h('span', { class: 'mono subject', title: subject }, subject) : null,
      ),
      cause?.request || cause?.socket
        ? h(
            'button',
            {
              type: 'button',
              class: 'link mono cause',
              'data-request': cause.request ?? cause.socket,
              title: cause.socket
                ? 'A message on the WebSocket this exchange opened: open the exchange'
                : 'Open the exchange that caused it',
            },
            cause.request ?? `${cause.socket} ws`,
          )
        : cause?.timer
          ? h('span', { class: 'mono cause muted', title: `timer ${cause.timer}` }, 'timer')
          : null,
    );
  };
  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-request]');
    if (button) onOpenRequest(button.dataset.request);
  });
  const update = () => {
    empty.hidden = count > 0;
  };
  return {
    reset(entries) {
      list.replaceChildren(...entries.map(render));
      count = entries.length;
      update();
      wrap.scrollTop = wrap.scrollHeight;
    },
    add(entry) {
      const atBottom = wrap.scrollHeight - wrap.scrollTop - wrap.clientHeight < 40;
      list.append(render(entry));
      count++;
      // The page stays light however long it runs: the server keeps the full log.
      while (list.childElementCount > 2000) list.firstElementChild.remove();
      update();
      if (atBottom) wrap.scrollTop = wrap.scrollHeight;
    },
    get size() {
      return count;
    },
  };
}

export function renderCoverage(container, report) {
  clear(container);
  const { summary, untouched } = report;
  const meter = (label, ratio) => {
    const pct = ratio.total ? Math.round((ratio.covered / ratio.total) * 100) : 0;
    const bar = h('span', { class: 'bar-fill' });
    bar.style.width = `${pct}%`;
    return h(
      'div',
      { class: 'meter' },
      h('span', { class: 'meter-label' }, label),
      h('span', { class: 'bar', role: 'img', 'aria-label': `${ratio.covered} of ${ratio.total}` }, bar),
      h('span', { class: 'mono meter-num' }, `${ratio.covered}/${ratio.total}`),
    );
  };
  const list = (title, items) =>
    h(
      'details',
      { class: 'untouched', open: items.length > 0 && items.length <= 30 },
      h('summary', null, title, h('span', { class: 'count' }, String(items.length))),
      items.length
        ? h(
            'ul',
            { class: 'plain' },
            items.map((item) => h('li', { class: 'mono' }, item)),
          )
        : h('p', { class: 'muted small' }, 'Everything was touched.'),
    );
  const operations = report.operations.filter((o) => o.requests > 0);
  container.append(
    h(
      'div',
      { class: 'meters' },
      meter('Operations', summary.operations),
      meter('Declared errors', summary.declaredErrors),
      meter('Transitions', summary.transitions),
      meter('Rules fired', summary.rules),
    ),
    h('h3', { class: 'sub' }, 'Never touched'),
    list('Operations never called', untouched.operations),
    list('Declared errors never answered', untouched.declaredErrors),
    list('Transitions that never happened', untouched.transitions),
    list('Rules that never fired', untouched.rules),
    h('h3', { class: 'sub' }, 'Called'),
    operations.length
      ? table(
          ['operation', 'calls:n', 'statuses', 'spec violations'],
          operations.map((o) =>
            h(
              'tr',
              null,
              h('td', { class: 'mono id', title: `${o.method} ${o.path}` }, o.operationId),
              h('td', { class: 'num' }, String(o.requests)),
              h(
                'td',
                { class: 'mono' },
                o.statuses
                  .filter((s) => s.answered > 0)
                  .map((s) =>
                    h(
                      'span',
                      {
                        class: `st-chip st-${Math.floor(s.status / 100)}xx${s.declared ? '' : ' undeclared'}`,
                        title: s.declared ? 'declared' : 'not declared by the spec',
                      },
                      `${s.status}×${s.answered}`,
                    ),
                  ),
              ),
              h(
                'td',
                { class: 'mono' },
                (o.violations ?? []).map((v) =>
                  h(
                    'span',
                    { class: 'viol-chip', title: 'where its traffic broke the spec' },
                    `${violationPlace(v)}×${v.count}`,
                  ),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted small' }, 'No operation called yet in this partition.'),
    // Answers a rule gave outside the spec on purpose (outsideSpec: true): shown only when there are some.
    report.outsideSpec?.length
      ? [
          h('h3', { class: 'sub' }, 'Answered outside the spec'),
          table(
            ['request', 'answers:n'],
            report.outsideSpec.map((o) =>
              h('tr', null, h('td', { class: 'mono id' }, o.request), h('td', { class: 'num' }, String(o.answered))),
            ),
          ),
        ]
      : null,
  );
}
