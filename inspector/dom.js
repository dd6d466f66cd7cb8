// Small DOM and formatting helpers. Everything the simulator sends (paths, headers, bodies) is text a
// client chose, so it only ever goes into the page as text nodes, never as markup.

/** `h('td', {class: 'x'}, 'text', child)`: an element; `on…` props become listeners, false/undefined are skipped. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Where a spec violation is, as the simulator reports it: `response body data.effect`, `request route`. */
export function violationPlace(v) {
  return [v.side, v.in, v.field].filter(Boolean).join(' ');
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function iso(ms) {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : '—';
}

/** `09:00:15.250`: the time of day of an ISO instant, which is what tells rows apart in one run. */
export function timeOfDay(ms) {
  return iso(ms).slice(11, 23);
}

/**
 * `14:03:22.153`: a wall-clock instant as this browser's local time of day. Beside a virtual time that stands
 * still, it says how far apart requests really came.
 */
export function wallTimeOfDay(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** `+4.5 s`, `−2 min`: how far an instant is from now, in the unit a person would use. */
export function relative(ms, now) {
  if (typeof ms !== 'number' || typeof now !== 'number') return '—';
  const delta = ms - now;
  const sign = delta < 0 ? '−' : '+';
  const abs = Math.abs(delta);
  if (abs < 1000) return `${sign}${abs} ms`;
  if (abs < 60_000) return `${sign}${trim(abs / 1000)} s`;
  if (abs < 3_600_000) return `${sign}${trim(abs / 60_000)} min`;
  return `${sign}${trim(abs / 3_600_000)} h`;
}

function trim(n) {
  return n.toFixed(1).replace(/\.0$/, '');
}

/**
 * A path with its long ids shortened (`ses_dfc5ae…zCB`), so the part that differs between rows fits the
 * column; the full path stays in the tooltip, the filter and the detail.
 */
export function shortPath(path) {
  return path
    .split('/')
    .map((segment) => {
      const id = /^([a-z]+_)([A-Za-z0-9]{14,})$/.exec(segment);
      return id ? `${id[1]}${id[2].slice(0, 6)}…${id[2].slice(-4)}` : segment;
    })
    .join('/');
}

export function statusClass(status) {
  if (!status) return 'st-drop';
  return `st-${Math.floor(status / 100)}xx`;
}

/** States read at a glance: what waits, what goes on, what ended well, what ended badly. */
export function stateClass(state) {
  switch (state) {
    case 'pending':
    case 'busy':
    case 'scheduled':
      return 'pill-wait';
    case 'running':
      return 'pill-run';
    case 'answered':
    case 'exited':
    case 'complete':
    case 'idle':
      return 'pill-ok';
    case 'timeout':
    case 'expired':
    case 'failed':
    case 'cancelled':
      return 'pill-bad';
    default:
      return 'pill-neutral';
  }
}

export function pill(text, cls) {
  return h('span', { class: `pill ${cls}` }, text);
}

const REDACTED = '[REDACTED]';

/** Pretty JSON as coloured text nodes (no markup from the data), masked secrets marked as such. */
export function jsonBlock(value) {
  const pre = h('pre', { class: 'json' });
  write(pre, value, '');
  return pre;
}

function write(out, value, pad) {
  if (value === null) out.append(h('span', { class: 'j-lit' }, 'null'));
  else if (Array.isArray(value)) {
    if (value.length === 0) return out.append('[]');
    out.append('[\n');
    value.forEach((item, i) => {
      out.append(`${pad}  `);
      write(out, item, `${pad}  `);
      out.append(i < value.length - 1 ? ',\n' : '\n');
    });
    out.append(`${pad}]`);
  } else if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return out.append('{}');
    out.append('{\n');
    keys.forEach((key, i) => {
      out.append(`${pad}  `, h('span', { class: 'j-key' }, JSON.stringify(key)), ': ');
      write(out, value[key], `${pad}  `);
      out.append(i < keys.length - 1 ? ',\n' : '\n');
    });
    out.append(`${pad}}`);
  } else if (typeof value === 'string')
    out.append(h('span', { class: value === REDACTED ? 'j-str j-redacted' : 'j-str' }, JSON.stringify(value)));
  else if (typeof value === 'number') out.append(h('span', { class: 'j-num' }, String(value)));
  else out.append(h('span', { class: 'j-lit' }, String(value)));
}

/** Name/value rows (headers, query): names in monospace, masked values marked. */
export function kvTable(record, empty) {
  const entries = Object.entries(record ?? {});
  if (entries.length === 0) return h('p', { class: 'muted small' }, empty);
  return h(
    'table',
    { class: 'kv' },
    h(
      'tbody',
      null,
      entries.map(([name, value]) => {
        const text = Array.isArray(value) ? value.join(', ') : String(value);
        return h(
          'tr',
          null,
          h('th', { scope: 'row' }, name),
          h('td', { class: text.includes(REDACTED) ? 'redacted' : undefined }, text),
        );
      }),
    ),
  );
}

/** One line for a domain event or control action: what happened, to what, and the state it moved. */
export function describeEntry(entry) {
  if (entry.kind === 'control') return { name: entry.action, subject: entry.detail ?? '', change: '' };
  const data = entry.data ?? {};
  const candidates = [
    data.id,
    data.sessionID,
    data.attemptID,
    data.integrationID,
    data.credentialID,
    data.directory,
    data.form?.id,
    data.info?.id,
  ];
  const subject = candidates.find((v) => typeof v === 'string') ?? '';
  const change = entry.transition ? `${entry.transition.from} → ${entry.transition.to}` : '';
  return { name: entry.type, subject, change };
}
