// The inspector: wires the toolbar, the journal, the exchange detail and the side panels to the control
// plane. Everything it shows arrives on the partition's live stream (GET /__sim/live); the state and
// coverage views are fetched again when an entry says something changed, never on a timer.
import { createApi, locate } from './api.js';
import { renderDetail, renderDetailError } from './detail.js';
import { h, iso } from './dom.js';
import { createJournal } from './journal.js';
import { createEvents, renderCoverage, renderState } from './panels.js';

const $ = (id) => document.getElementById(id);

const place = locate(location.pathname);
const fromQuery = new URLSearchParams(location.search).get('partition') ?? undefined;
/** The partition the address names: `?partition=` (kept by the selector) over a /__partition/NAME/ prefix. */
const addressed = place.partition ?? 'default';
const api = createApi(place.root, fromQuery ?? addressed);

/** Journal lines by request id: the detail view's summary, without asking the server again. */
const summaries = new Map();
let source;
/** Bumped on every partition switch, so an answer for the partition left behind is dropped. */
let generation = 0;
let openId;
let clock = { now: undefined, realTime: false, wall: 0 };

// ---- Clock

const nowEl = $('now');
function setClock(now, realTime = clock.realTime) {
  if (typeof now !== 'number') return;
  clock = { now, realTime, wall: Date.now() };
  showClock();
}
function showClock() {
  const now = clock.realTime && clock.now !== undefined ? clock.now + (Date.now() - clock.wall) : clock.now;
  const text = iso(now);
  nowEl.dateTime = text;
  nowEl.replaceChildren(h('span', { class: 'date' }, text.slice(0, 11)), text.slice(11));
}
// A real-time partition's clock moves by itself: follow it locally between the entries that restate it.
setInterval(() => clock.realTime && showClock(), 1000);

// ---- Toasts

function toast(error) {
  const tag = error?.tag;
  const el = h(
    'div',
    { class: 'toast' },
    h('strong', null, tag ? `${tag}` : 'Failed'),
    h('span', null, error?.message ?? String(error)),
    error?.hint ? h('span', { class: 'hint' }, error.hint) : null,
  );
  $('toasts').append(el);
  setTimeout(() => el.remove(), 8000);
}

async function control(method, path, body) {
  try {
    return await api.call(method, path, body);
  } catch (error) {
    toast(error);
    return undefined;
  }
}

// ---- Journal and exchange detail

const detailEl = $('detail');
const journal = createJournal({
  table: $('journal'),
  empty: $('journal-empty'),
  count: $('count'),
  filterInput: $('filter'),
  errorsOnly: $('errors-only'),
  onOpen: (id) => void openExchange(id),
});

async function openExchange(id) {
  openId = id;
  const at = generation;
  const summary = summaries.get(id);
  detailEl.hidden = false;
  detailEl.setAttribute('aria-busy', 'true');
  renderDetail(detailEl, summary, undefined);
  journal.reveal(id);
  try {
    const detail = await api.call('GET', `exchanges/${encodeURIComponent(id)}`);
    if (openId !== id || at !== generation) return;
    renderDetail(detailEl, summaries.get(id) ?? summary, detail);
  } catch (error) {
    if (openId === id && at === generation) renderDetailError(detailEl, summary, error);
  } finally {
    detailEl.removeAttribute('aria-busy');
  }
}

function closeDetail() {
  if (openId === undefined) return;
  openId = undefined;
  detailEl.hidden = true;
  detailEl.replaceChildren();
  journal.unselect();
}

detailEl.addEventListener('click', (event) => {
  if (event.target.closest('[data-action="close-detail"]')) closeDetail();
});

$('clear-journal').addEventListener('click', async () => {
  await control('DELETE', 'journal');
  summaries.clear();
  journal.reset([]);
  closeDetail();
});

// ---- Side panels

const events = createEvents($('events'), $('events-empty'), {
  onOpenRequest: (id) => void openExchange(id),
});
const eventsCount = $('events-count');

const tabs = ['state', 'events', 'coverage'];
let activeTab = 'state';
function showTab(name, focus = false) {
  activeTab = name;
  for (const tab of tabs) {
    const button = $(`tab-${tab}`);
    const selected = tab === name;
    button.setAttribute('aria-selected', String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`panel-${tab}`).hidden = !selected;
    if (selected && focus) button.focus();
  }
  if (name === 'coverage') void refreshCoverage();
}
for (const tab of tabs) $(`tab-${tab}`).addEventListener('click', () => showTab(tab));
document.querySelector('[role="tablist"]').addEventListener('keydown', (event) => {
  const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
  if (!step) return;
  event.preventDefault();
  showTab(tabs[(tabs.indexOf(activeTab) + step + tabs.length) % tabs.length], true);
});

/** Runs `task` once after a burst of calls (an advance can log dozens of entries at once). */
function debounce(task, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(task, ms);
  };
}

async function refreshState() {
  const at = generation;
  const state = await control('GET', 'state');
  if (!state || at !== generation) return;
  setClock(state.now, state.realTime);
  renderState($('panel-state'), state);
  $('status-partition').textContent = `partition ${api.partition} · scenario ${state.scenario ?? 'none'}`;
}
const scheduleState = debounce(refreshState, 50);

async function refreshCoverage() {
  const at = generation;
  const report = await control('GET', $('coverage-all').checked ? 'coverage?all' : 'coverage');
  if (report && at === generation) renderCoverage($('coverage'), report);
}
const scheduleCoverage = debounce(() => activeTab === 'coverage' && refreshCoverage(), 250);
$('coverage-all').addEventListener('change', () => void refreshCoverage());

// ---- Banner (a scenario edit the hot reload refused)

function setBanner(problem) {
  $('banner').hidden = !problem;
  $('banner-problem').textContent = problem ?? '';
}

// ---- Toolbar: partitions, scenarios, reset, clock

const partitionSelect = $('partition');
async function refreshPartitions() {
  const listed = await control('GET', 'partitions');
  if (!listed) return;
  const names = listed.partitions.map((p) => p.name);
  if (!names.includes(api.partition)) names.push(api.partition);
  // Changed in place, option by option: rebuilding the list would close it if it is open in front of someone.
  for (const option of [...partitionSelect.options]) if (!names.includes(option.value)) option.remove();
  const shown = new Set([...partitionSelect.options].map((o) => o.value));
  for (const name of names) if (!shown.has(name)) partitionSelect.append(h('option', { value: name }, name));
  partitionSelect.value = api.partition;
}
// New partitions appear when their first request arrives; the list is read again whenever it is about to be used.
partitionSelect.addEventListener('focus', () => void refreshPartitions());
partitionSelect.addEventListener('pointerdown', () => void refreshPartitions());
partitionSelect.addEventListener('change', () => switchPartition(partitionSelect.value));

function switchPartition(name) {
  if (name === api.partition) return;
  api.partition = name;
  const url = new URL(location.href);
  if (name === addressed) url.searchParams.delete('partition');
  else url.searchParams.set('partition', name);
  history.replaceState(null, '', url);
  closeDetail();
  connect();
}

const scenarioSelect = $('scenario');
async function refreshScenarios() {
  const at = generation;
  const listed = await control('GET', 'scenarios');
  if (!listed || at !== generation) return;
  const names = [...listed.available];
  if (listed.current !== null && !names.includes(listed.current)) names.unshift(listed.current);
  const options = names.map((name) => h('option', { value: name, selected: name === listed.current }, name));
  if (listed.current === null) options.unshift(h('option', { value: '', selected: true, disabled: true }, 'none'));
  scenarioSelect.replaceChildren(...options);
  scenarioSelect.disabled = listed.available.length === 0;
  scenarioSelect.title = scenarioSelect.disabled ? 'Scenarios serve in mock mode only' : 'Switch scenario (and reset)';
}
scenarioSelect.addEventListener('change', async () => {
  const answer = await control('PUT', 'scenario', { name: scenarioSelect.value });
  if (!answer) void refreshScenarios();
});

$('reset').addEventListener('click', () => void control('POST', 'reset'));

async function advance(by) {
  const text = String(by).trim();
  const body = /^\d+$/.test(text) ? { ms: Number(text) } : { by: text };
  const answer = await control('POST', 'clock/advance', body);
  if (answer) setClock(answer.now, answer.realTime);
  return answer;
}
for (const button of document.querySelectorAll('[data-by]'))
  button.addEventListener('click', () => void advance(button.dataset.by));
$('advance-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('advance-by');
  if (input.value.trim() === '') return input.focus();
  if (await advance(input.value)) input.select();
});

// ---- Theme

const THEME_KEY = 'session-agent-sim.inspector.theme';
function applyTheme(theme) {
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
}
function toggleTheme() {
  const current =
    document.documentElement.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  const next = current === 'dark' ? 'light' : 'dark';
  applyTheme(next);
  try {
    localStorage.setItem(THEME_KEY, next);
  } catch {
    // storage may be off (private windows): the toggle still works for this visit
  }
}
try {
  applyTheme(localStorage.getItem(THEME_KEY));
} catch {
  // no stored choice: follow the system
}
$('theme').addEventListener('click', toggleTheme);

// ---- Shortcuts

const dialog = $('shortcuts');
$('help').addEventListener('click', () => dialog.showModal());
$('shortcuts-close').addEventListener('click', () => dialog.close());

document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || dialog.open) return;
  const target = event.target;
  const typing =
    target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (typing) {
    if (event.key === 'Escape' && target.id === 'filter') {
      if (target.value) target.value = '';
      else journal.focusSelectedOrFirst();
      target.dispatchEvent(new Event('input'));
    }
    return;
  }
  switch (event.key) {
    case '/':
      event.preventDefault();
      $('filter').focus();
      $('filter').select();
      return;
    case 'Escape':
      closeDetail();
      return;
    case '?':
      dialog.showModal();
      return;
    case 't':
      toggleTheme();
      return;
    case '.':
      void advance('1s');
      return;
    case '1':
    case '2':
    case '3':
      showTab(tabs[Number(event.key) - 1], true);
      return;
  }
});

// ---- Live stream

const connection = $('connection');
function setConnection(state, text) {
  connection.dataset.state = state;
  connection.textContent = text;
}

function connect() {
  source?.close();
  generation++;
  summaries.clear();
  journal.reset([]);
  events.reset([]);
  eventsCount.textContent = '0';
  setConnection('connecting', 'connecting…');
  const at = generation;
  source = new EventSource(api.liveUrl());
  source.addEventListener('open', () => at === generation && setConnection('live', `live · ${api.partition}`));
  // EventSource retries by itself; the next hello restores everything.
  source.addEventListener('error', () => at === generation && setConnection('down', 'reconnecting…'));
  source.addEventListener('message', (message) => {
    if (at !== generation) return;
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    if (frame.type === 'hello') onHello(frame);
    else if (frame.type === 'entry') onEntry(frame.entry);
  });
  const curl = `curl -s ${location.origin}${place.root}/api/integration${api.partition === 'default' ? '' : ` -H 'X-Sim-Partition: ${api.partition}'`}`;
  $('try-curl').textContent = curl;
}

function onHello(hello) {
  summaries.clear();
  for (const entry of hello.journal) if (entry.id) summaries.set(entry.id, entry);
  journal.reset(hello.journal);
  events.reset(hello.entries);
  eventsCount.textContent = String(events.size);
  setBanner(hello.reloadProblem);
  setClock(hello.now, hello.realTime);
  if (openId !== undefined && !summaries.has(openId)) closeDetail();
  else if (openId !== undefined) journal.reveal(openId);
  setConnection('live', `live · ${hello.partition}`);
  void refreshState();
  void refreshScenarios();
  void refreshPartitions();
  scheduleCoverage();
}

function onEntry(entry) {
  if (entry.kind === 'exchange') {
    summaries.set(entry.id, entry);
    journal.add(entry);
    scheduleState();
    scheduleCoverage();
    return;
  }
  events.add(entry);
  eventsCount.textContent = String(events.size);
  scheduleState();
  if (entry.kind !== 'control') return;
  switch (entry.action) {
    case 'reset':
    case 'scenario':
    case 'reload':
      // The journal starts afresh with the world (as GET /__sim/journal does); the events list keeps going.
      setClock(entry.time);
      summaries.clear();
      journal.reset([]);
      closeDetail();
      setBanner(null);
      void refreshScenarios();
      scheduleCoverage();
      if (entry.action === 'reload') journal.add(entry);
      break;
    case 'reload.failed':
      setBanner(entry.detail ?? 'The scenario file was changed and does not load');
      journal.add(entry);
      break;
    case 'advance':
      setClock(entry.time);
      break;
  }
}

connect();
