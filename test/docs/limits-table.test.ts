/**
 * SECURITY.md's memory tables against the code: every bound a client can push on is listed, with the number the
 * code holds. A bound a kind adds to its `limits` (collected in `KINDS.limits`) fails here until it has its row; a number changed
 * in the code fails until the table says it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/config.js';
import { MAX_LIVE_STREAMS } from '../../src/control/live.js';
import { SUBSCRIBER_BUFFER, SUBSCRIBER_BUFFER_BYTES } from '../../src/http/sse.js';
import { KINDS } from '../../src/kinds/registry.js';
import { MAX_RECORDED_STREAM_BYTES } from '../../src/recordings/recorder.js';
import { DEFAULT_DETAILS_BYTES, DEFAULT_DETAILS_CAPACITY, DEFAULT_LOG_CAPACITY } from '../../src/state/log.js';
import { DEFAULT_MAX_RULES } from '../../src/state/rule-store.js';
import { DURABLE_EVENTS_KEPT } from '../../src/stream/durable-log.js';
import { MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE } from '../../src/text/linear-regex.js';
import { MAX_ALIAS_VALUES } from '../../src/text/read-yaml.js';

const text = readFileSync(new URL('../../SECURITY.md', import.meta.url), 'utf8');
const section = text.slice(text.indexOf('### Memory stays bounded'), text.indexOf('### Nothing recorded'));

/** Each table row of the section by its first cell: the rest of its cells. */
const rows = new Map<string, string[]>();
for (const line of section.split('\n')) {
  if (!line.startsWith('| ') || line.startsWith('| what |')) continue;
  const [what, ...rest] = line.slice(2, -2).split(' | ');
  rows.set(what as string, rest);
}

const count = (n: number) => n.toLocaleString('en-US');
const bytes = (n: number) => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n / 1024} KiB`);

/** The bound cell of a row, which must hold each of `numbers` as written (`1,000`, not a part of `11,000`). */
function expectBound(what: string, ...numbers: string[]): void {
  const cells = rows.get(what);
  expect(cells, `SECURITY.md has no row "${what}"`).toBeDefined();
  for (const number of numbers) {
    const escaped = number.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(cells?.[0], `${what}: ${number}`).toMatch(new RegExp(`(?<![\\d,.])${escaped}(?![\\d]|[,.]\\d)`));
  }
}

/** The row of each resource clients create, by its key in the kinds' limits. */
const RESOURCE_ROWS: Partial<Record<string, string>> = {
  session: 'sessions',
  message: 'messages of one session (its queued prompts count)',
  pty: 'PTYs',
  ptyConnection: 'terminals open on PTYs (WebSocket connections)',
  ptyTicket: 'PTY connect tickets not yet used or expired',
  ptyOutput: 'output a PTY keeps to replay on connect',
  permission: 'pending permission requests',
  savedPermission: 'saved permissions',
  question: 'pending questions',
  attempt: 'OAuth attempts',
  credential: 'credentials',
  workspace: 'workspaces',
  worktree: 'worktrees',
  projectCopy: 'project copies',
  waiting: 'requests waiting for a session to go idle',
  queuedPrompt: 'prompts waiting for their turn in one session',
  partitionQueuedPrompt: 'prompts waiting for their turn, over all sessions',
};

describe("SECURITY.md's memory tables", () => {
  it('list every bound on what clients create, with its number', () => {
    // The kinds' bounds are gathered from their folders: one a kind forgot to declare would go unchecked.
    expect(Object.keys(KINDS.limits).sort()).toEqual(Object.keys(RESOURCE_ROWS).sort());
    for (const [key, bound] of Object.entries(KINDS.limits)) {
      const what = RESOURCE_ROWS[key];
      expect(
        what,
        `limits.${key} (${count(bound)}) has no row in SECURITY.md: add one, and its name here`,
      ).toBeDefined();
      expectBound(what as string, count(bound));
    }
  });

  it("list the server's own bounds with the numbers of its defaults", () => {
    expectBound('request body', bytes(DEFAULTS.bodyLimit));
    expectBound('request line + headers', bytes(DEFAULTS.maxHeaderSize));
    expectBound('a slow, silent or half-open client', `${DEFAULTS.requestTimeout / 1000} s`);
    expectBound('partitions', count(DEFAULTS.maxPartitions));
    expectBound('event-stream subscribers', count(DEFAULTS.maxSubscribers));
    expectBound('one subscriber that stops reading', `${SUBSCRIBER_BUFFER} frames`, bytes(SUBSCRIBER_BUFFER_BYTES));
    expectBound('inspector streams', count(MAX_LIVE_STREAMS));
    expectBound('run-time rules', count(DEFAULT_MAX_RULES));
    expectBound(
      "a rule's `pathPattern`",
      `${count(MAX_PATTERN_LENGTH)} characters`,
      `${count(MAX_PROGRAM_SIZE)} steps`,
    );
    expectBound(
      'journal / log / exchange details',
      `${count(DEFAULT_LOG_CAPACITY)} entries`,
      `${count(DEFAULT_DETAILS_CAPACITY)} exchanges`,
      bytes(DEFAULT_DETAILS_BYTES),
    );
    expectBound("durable session events (history, a session's event stream)", count(DURABLE_EVENTS_KEPT));
    expectBound('a recorded stream', bytes(MAX_RECORDED_STREAM_BYTES));
    expectBound(
      'YAML aliases (a scenario by file or `PUT /__sim/scenario`, a recording, a spec)',
      `${count(MAX_ALIAS_VALUES)} values`,
    );
  });
});
