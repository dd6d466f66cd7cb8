// The journal table: one row per exchange, appended as the live stream reports them, filtered as you type.
// Rows use a roving tabindex: Tab reaches the table once, the arrow keys (or j/k) move within it.
import { h, iso, shortPath, statusClass, timeOfDay, violationPlace, wallTimeOfDay } from './dom.js';

const MAX_ROWS = 2000;
const LAYERS = new Set([
  'rule',
  'scenario',
  'fallback',
  'validation',
  'simulator',
  'upstream',
  'replay',
  'record',
  'auth',
]);

/** The time cell's tooltip: both instants in full. */
function instants(entry) {
  const wall = typeof entry.wall === 'number' ? `\nwall ${iso(entry.wall)}` : '';
  return `virtual ${iso(entry.time)}${wall}`;
}

export function createJournal({ table, empty, count, filterInput, errorsOnly, onOpen }) {
  const tbody = table.tBodies[0];
  const wrap = table.parentElement;
  /** id → row, for opening an exchange from elsewhere (an event's cause). */
  const rows = new Map();
  let total = 0;
  let selected;

  const matches = (row) => {
    if (errorsOnly.checked && row.dataset.problem !== 'yes') return false;
    const query = filterInput.value.trim().toLowerCase();
    return query === '' || query.split(/\s+/).every((word) => row.dataset.search.includes(word));
  };

  const refreshCount = () => {
    const shown = [...rows.values()].filter((row) => !row.hidden).length;
    count.textContent = shown === total ? `${total} exchange${total === 1 ? '' : 's'}` : `${shown} of ${total}`;
    empty.hidden = total > 0;
  };

  const visible = () => [...tbody.rows].filter((row) => row.dataset.id && !row.hidden);

  const focusRow = (row) => {
    if (!row) return;
    for (const other of tbody.querySelectorAll('tr[tabindex="0"]')) other.tabIndex = -1;
    row.tabIndex = 0;
    row.focus();
  };

  const select = (row) => {
    if (selected) selected.removeAttribute('aria-selected');
    selected = row;
    if (row) {
      row.setAttribute('aria-selected', 'true');
      onOpen(row.dataset.id);
    }
  };

  /** A reload (or a refused one) between exchanges: what came after it was answered from the new file. */
  const divider = (entry) => {
    const failed = entry.action === 'reload.failed';
    const text = failed
      ? 'Scenario edit refused, the last good version still serves'
      : `Scenario reloaded${entry.detail ? `: ${entry.detail}` : ''}`;
    return h(
      'tr',
      { class: `divider ${failed ? 'divider-bad' : ''}` },
      h('td', { class: 'c-seq mono' }, entry.seq ?? ''),
      h('td', { class: 'c-time mono', title: iso(entry.time) }, timeOfDay(entry.time)),
      h(
        'td',
        { colspan: '7' },
        h('span', { class: 'divider-text' }, failed ? '⚠ ' : '↻ ', text),
        failed && entry.detail ? h('pre', { class: 'mono divider-detail' }, entry.detail) : null,
      ),
    );
  };

  const render = (entry) => {
    const problem = entry.status >= 400 || entry.status === 0 || (entry.violations?.length ?? 0) > 0;
    const layer = LAYERS.has(entry.layer) ? entry.layer : 'other';
    const statusText = entry.status === 0 ? 'dropped' : String(entry.status);
    const violations = entry.violations ?? [];
    const changes = entry.changes ?? [];
    const row = h(
      'tr',
      { tabindex: '-1', 'data-id': entry.id, 'data-problem': problem ? 'yes' : 'no', class: statusClass(entry.status) },
      // The virtual clock stands still unless advanced: the log's number and the wall time tell rows apart.
      h('td', { class: 'c-seq mono', title: `log entry ${entry.seq ?? '—'} of this partition` }, entry.seq ?? ''),
      h(
        'td',
        { class: 'c-time mono', title: instants(entry) },
        timeOfDay(entry.time),
        typeof entry.wall === 'number' ? h('span', { class: 'wall' }, wallTimeOfDay(entry.wall)) : null,
      ),
      h('td', { class: `c-method mono m-${entry.method.toLowerCase()}` }, entry.method),
      h(
        'td',
        { class: 'c-path mono', title: entry.path },
        h(
          'span',
          { class: 'cell' },
          h('span', { class: 'clip' }, shortPath(entry.path)),
          changes.length ? h('span', { class: 'changes', title: changes.join('\n') }, `Δ${changes.length}`) : null,
        ),
      ),
      h('td', { class: 'c-op mono', title: entry.operationId ?? 'no operation of the spec' }, entry.operationId ?? '—'),
      h('td', { class: 'c-layer' }, h('span', { class: `layer layer-${layer}` }, entry.layer)),
      h(
        'td',
        { class: 'c-status mono' },
        h('span', { class: 'status' }, statusText),
        entry.tag ? h('span', { class: 'tag', title: entry.tag }, entry.tag) : null,
        entry.outsideSpec
          ? h('span', { class: 'off-spec', title: 'answered by a rule with outsideSpec: true' }, 'outside spec')
          : null,
      ),
      h('td', { class: 'c-rule mono', title: entry.rule ?? '' }, entry.rule ?? ''),
      h(
        'td',
        { class: 'c-viol' },
        violations.length
          ? h(
              'span',
              {
                class: 'viol',
                title: violations.map((v) => `${violationPlace(v)}: ${v.message}`).join('\n'),
                'aria-label': `${violations.length} spec violations`,
              },
              `⚠ ${violations.length}`,
            )
          : '',
      ),
    );
    row.dataset.search = [
      entry.seq === undefined ? undefined : `#${entry.seq}`,
      entry.id,
      entry.method,
      entry.path,
      entry.operationId,
      entry.layer,
      statusText,
      entry.tag,
      entry.rule,
      entry.outsideSpec ? 'outside spec' : undefined,
      ...violations.flatMap((v) => [violationPlace(v), v.message]),
      ...changes,
    ]
      .filter(Boolean)
      .join(' ')
      .toLowerCase();
    return row;
  };

  const add = (entry, { stick } = {}) => {
    const atBottom = stick ?? wrap.scrollHeight - wrap.scrollTop - wrap.clientHeight < 40;
    if (entry.kind === 'control') {
      tbody.append(divider(entry));
      if (atBottom) wrap.scrollTop = wrap.scrollHeight;
      return;
    }
    const row = render(entry);
    const old = rows.get(entry.id);
    if (old) old.remove();
    else total++;
    rows.set(entry.id, row);
    row.hidden = !matches(row);
    tbody.append(row);
    // A page left open for a day stays light: the oldest rows go (the server keeps its own bounded journal).
    while (rows.size > MAX_ROWS) {
      const [oldest, first] = rows.entries().next().value;
      rows.delete(oldest);
      first.remove();
      total--;
    }
    if (!tbody.querySelector('tr[tabindex="0"]')) row.tabIndex = 0;
    refreshCount();
    // Follow new rows only while the reader is at the bottom: scrolling up to read stops the table moving.
    if (atBottom) wrap.scrollTop = wrap.scrollHeight;
  };

  const reset = (entries) => {
    tbody.replaceChildren();
    rows.clear();
    total = 0;
    selected = undefined;
    const fragment = document.createDocumentFragment();
    for (const entry of entries) {
      if (entry.kind === 'control') {
        fragment.append(divider(entry));
        continue;
      }
      const row = render(entry);
      row.hidden = !matches(row);
      rows.set(entry.id, row);
      total++;
      fragment.append(row);
    }
    tbody.append(fragment);
    const first = visible()[0];
    if (first) first.tabIndex = 0;
    refreshCount();
    wrap.scrollTop = wrap.scrollHeight;
  };

  const applyFilter = () => {
    for (const row of rows.values()) row.hidden = !matches(row);
    refreshCount();
  };
  filterInput.addEventListener('input', applyFilter);
  errorsOnly.addEventListener('change', applyFilter);

  tbody.addEventListener('click', (event) => {
    const row = event.target.closest('tr');
    if (!row?.dataset.id) return;
    focusRow(row);
    select(row);
  });
  tbody.addEventListener('keydown', (event) => {
    const row = event.target.closest('tr');
    if (!row?.dataset.id) return;
    const list = visible();
    const at = list.indexOf(row);
    const go = (target) => {
      event.preventDefault();
      focusRow(target);
    };
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        return go(list[Math.min(at + 1, list.length - 1)]);
      case 'ArrowUp':
      case 'k':
        return go(list[Math.max(at - 1, 0)]);
      case 'Home':
        return go(list[0]);
      case 'End':
        return go(list[list.length - 1]);
      case 'Enter':
      case ' ':
        event.preventDefault();
        return select(row);
    }
  });

  return {
    add,
    reset,
    /** Marks the row of an exchange opened from elsewhere. */
    reveal(id) {
      const row = rows.get(id);
      if (!row) return;
      if (selected) selected.removeAttribute('aria-selected');
      selected = row;
      row.setAttribute('aria-selected', 'true');
      row.scrollIntoView({ block: 'nearest' });
    },
    unselect() {
      if (selected) {
        selected.removeAttribute('aria-selected');
        const row = selected;
        selected = undefined;
        if (!row.hidden) focusRow(row);
      }
    },
    focusSelectedOrFirst() {
      focusRow(selected && !selected.hidden ? selected : visible()[visible().length - 1]);
    },
    get size() {
      return total;
    },
  };
}
