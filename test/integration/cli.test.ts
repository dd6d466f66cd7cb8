import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, startCli } from '../support/cli-process.js';

function cli(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });
}

describe('session-agent-sim CLI', () => {
  it('serves on loopback, answers in the API dialect and stops cleanly on SIGTERM', async () => {
    await startCli(['mock', '--port', '0', '--seed', 'cli-test'], async (url, out) => {
      const res = await fetch(`${url}/api/model/default`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).location.directory).toBe('/home/dev/acme-web');
      expect(out).toContain('seed "cli-test"');
    });
  });

  it('runs mock when given no command', async () => {
    await startCli(['--port', '0'], async (url, out) => {
      expect(out).toMatch(/^session-agent-sim mock: /);
      expect((await fetch(`${url}/api/model/default`)).status).toBe(200);
    });
  });

  it('refuses a bad flag value with a sentence and exit code 2', () => {
    const result = cli('mock', '--port', 'abc');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('port must be an integer');
  });

  it('prints the package version with --version and -v', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const result = cli(flag);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });
});

describe('session-agent-sim help', () => {
  it('gives an overview of the commands with --help and help', () => {
    const result = cli('--help');
    expect(result.status, result.stderr).toBe(0);
    for (const command of ['mock', 'proxy', 'record', 'replay', 'validate', 'drift', 'har-export', 'har-import']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
    }
    expect(result.stdout).toContain('with no command: mock');
    expect(result.stdout).toContain('session-agent-sim <command> --help');
    expect(cli('help').stdout).toBe(result.stdout);
  });

  it.each([
    ['mock', '--scenario NAME|FILE', 'session-agent-sim mock --scenario forms-settling'],
    ['proxy', '--upstream-timeout MS', 'session-agent-sim proxy --upstream http://127.0.0.1:4096'],
    [
      'record',
      '--redact-header NAME',
      'session-agent-sim record --upstream http://127.0.0.1:4096 --recording recordings/login-flow.yaml',
    ],
    ['replay', '--exhausted last|error', 'session-agent-sim replay --recording recordings/login-flow.yaml --upstream'],
    ['validate', '-h, --help', 'session-agent-sim validate forms-settling'],
    ['drift', '-h, --help', 'session-agent-sim drift recordings/login-flow.yaml'],
    ['har-export', '-h, --help', 'session-agent-sim har-export recordings/login-flow.yaml > login-flow.har'],
    [
      'har-import',
      '--recording FILE',
      'session-agent-sim har-import login-flow.har --recording recordings/login-flow.yaml',
    ],
  ])('%s --help shows its usage, its options and examples', (command, option, example) => {
    const result = cli(command, '--help');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: session-agent-sim ${command}\\b`));
    expect(result.stdout).toContain(option);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain(example);
    expect(result.stdout.includes('--coverage FILE')).toBe(['mock', 'proxy', 'record', 'replay'].includes(command));
  });

  it("shows a command's own options with their defaults", () => {
    const mock = cli('mock', '-h').stdout;
    expect(mock).toMatch(/--port N +port to listen on; 0 picks a free one \(default: 4010\)/);
    expect(mock).not.toContain('--upstream');
    expect(cli('help', 'mock').stdout).toBe(mock);
    expect(cli('proxy', '--help').stdout).not.toContain('--scenario');
  });
});

describe('session-agent-sim mistakes', () => {
  it('suggests the closest command for an unknown one, on stderr with exit 2', () => {
    const result = cli('mok');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Unknown command "mok". Did you mean "mock"?');
    expect(result.stderr).toContain('session-agent-sim --help');
    expect(cli('help', 'har-exprot').stderr).toContain('Unknown command "har-exprot". Did you mean "har-export"?');
  });

  it('suggests the closest option of the command for an unknown flag', () => {
    const result = cli('mock', '--scenaro', 'forms-settling');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown option --scenaro. Did you mean --scenario?');
    expect(result.stderr).toContain('session-agent-sim mock --help');
    expect(cli('replay', '--recording', 'r.yaml', '--exausted', 'error').stderr).toContain(
      'Unknown option --exausted. Did you mean --exhausted?',
    );
  });

  it('says which commands take a flag given to one that does not', () => {
    const result = cli('validate', '--coverage', 'coverage.json');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'validate does not take --coverage; it is an option of mock, proxy, record, replay.',
    );
    expect(cli('proxy', '--upstream', 'http://127.0.0.1:4096', '--scenario', 'default').stderr).toContain(
      'proxy does not take --scenario; it is an option of mock, model, real.',
    );
  });

  it('names a missing required flag', () => {
    const result = cli('record', '--upstream', 'http://127.0.0.1:4096');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('record needs --recording FILE');
  });
});

describe('session-agent-sim validate', () => {
  it('passes the shipped scenarios', () => {
    const result = cli('validate');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('forms-settling.yaml');
  });

  it('takes scenario names as --scenario does', () => {
    const result = cli('validate', 'forms-settling', 'busy-session');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ok {4}\S*scenarios\/forms-settling\.yaml/m);
    expect(result.stdout).toMatch(/^ok {4}\S*scenarios\/busy-session\.yaml/m);
  });

  it('answers an unknown name with the closest scenario and the available ones', () => {
    const result = cli('validate', 'forms-setling');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('No scenario "forms-setling". Did you mean "forms-settling"?');
    expect(result.stderr).toMatch(/Available: .*busy-session.*default/);
  });

  it('refuses a broken file naming file, line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-validate-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nsessions:\n  - id: ses_1\n    bussy: []\n');
    const result = cli('validate', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${file}:4:5: sessions[0]: unknown field "bussy". Did you mean "busy"?`);
  });

  it('refuses to start on a broken scenario, naming file, line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-start-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nsessions:\n  - id: ses_1\n    generate: { count: many }\n');
    const result = cli('mock', '--scenario', file, '--port', '0');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}:4:24: sessions[0].generate.count must be integer`);
  });
});

describe('session-agent-sim --auth and --watch', () => {
  it('lists --auth on the serving commands and --watch on mock, saying the control plane stays open', () => {
    for (const command of ['mock', 'proxy', 'record', 'replay']) {
      const help = cli(command, '--help').stdout;
      expect(help).toContain('--auth USER:PASS');
      expect(help).toMatch(/\/__sim\s+stays\s+open/);
      expect(help.includes('--watch')).toBe(command === 'mock');
    }
    expect(cli('mock', '--help').stdout).toContain('session-agent-sim mock --auth secret');
    expect(cli('validate', '--auth', 'secret').stderr).toContain(
      'validate does not take --auth; it is an option of mock, proxy, record, replay, real.',
    );
  });

  it.each([
    [[''], '--auth is empty: give USER:PASS, or PASS alone for user opencode'],
    [[':hunter2'], '--auth names no user before the colon'],
    [['alice:'], '--auth has no password after the colon'],
    [[], '--auth needs a value: --auth USER:PASS.'],
  ])('refuses --auth %j with the way to write it, exit 2', (value, message) => {
    const result = cli('mock', '--port', '0', '--auth', ...value);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('asks for credentials on the API, names the user (never the password) and leaves /__sim open', async () => {
    await startCli(['mock', '--port', '0', '--auth', 'alice:hunter2'], async (url, out) => {
      expect(out).toContain('HTTP Basic auth required (user alice)');
      expect(out).not.toContain('hunter2');
      const refused = await fetch(`${url}/api/plugin`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Basic realm="Secure Area"');
      const answered = await fetch(`${url}/api/plugin`, {
        headers: { authorization: `Basic ${Buffer.from('alice:hunter2').toString('base64')}` },
      });
      expect(answered.status).toBe(200);
      expect((await fetch(`${url}/__sim/clock`)).status).toBe(200);
    });
  });
});

/**
 * Runs a serving command, gathering standard output and error apart; `use` gets the URL and `settled`, which
 * waits until the output holds what it should. Ends with SIGTERM (which flushes the last lines) and hands back
 * all that was printed.
 */
async function serveCli(
  args: string[],
  use: (url: string, settled: (done: (out: string) => boolean) => Promise<void>) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ out: string; err: string }> {
  const { NO_COLOR, FORCE_COLOR, ...inherited } = process.env;
  void NO_COLOR;
  void FORCE_COLOR;
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const until = async (done: () => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`${what} in 15 s:\n${out}\n${err}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    await until(() => /on http:\/\/127\.0\.0\.1:\d+/.test(out + err), 'no start-up line');
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out + err)?.[1] as string;
    await use(url, (done) => until(() => done(out), 'not printed'));
  } finally {
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }
  return { out, err };
}

/** The exchanges' own lines (a time first), not the headers --verbose adds under them. */
const exchangeLines = (out: string) => out.split('\n').filter((line) => /^\d\d:\d\d:\d\d\.\d{3} /.test(line));

describe('session-agent-sim prints what happens', () => {
  const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';

  it('prints a line per exchange: time, id, method, path, status, _tag, operation, layer, rule', async () => {
    // A still clock, so that every line reads the scenario's start.
    const { out } = await serveCli(['mock', '--port', '0', '--virtual-time'], async (url, settled) => {
      await fetch(`${url}/api/session`);
      await fetch(`${url}/api/session/ses_nope`);
      await fetch(`${url}/api/plugin`, { headers: { 'x-sim-partition': 'w1' } });
      const rule = {
        when: { operation: 'v2.session.messages', params: { sessionID: SES } },
        then: { error: { _tag: 'SessionNotFoundError', sessionID: SES, message: `Session not found: ${SES}` } },
      };
      const added = await fetch(`${url}/__sim/rules`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
      });
      expect(added.status).toBe(201);
      await fetch(`${url}/api/session/${SES}/message`);
      await settled((printed) => exchangeLines(printed).length === 4);
    });
    // The control plane's own requests (the rule added) are not exchanges of the API: no line.
    expect(exchangeLines(out)).toEqual([
      '09:00:00.000 req_000001 GET /api/session → 200 v2.session.list (scenario)',
      '09:00:00.000 req_000002 GET /api/session/ses_nope → 404 SessionNotFoundError v2.session.get (scenario)',
      '09:00:00.000 [w1] req_000001 GET /api/plugin → 200 v2.plugin.list (scenario)',
      // The control request took req_000003: ids count every request of the partition.
      `09:00:00.000 req_000004 GET /api/session/${SES}/message → 404 SessionNotFoundError v2.session.messages (rule: runtime rule rul_1)`,
    ]);
  });

  it('prints no exchange with --quiet, only the start-up line', async () => {
    const { out } = await serveCli(['mock', '--port', '0', '--quiet'], async (url) => {
      for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/session`)).status).toBe(200);
    });
    expect(out).toMatch(/^session-agent-sim mock: .*\nclock: .*\n$/);
  });

  it('prints one JSON object a line with --log json, and the start-up lines on stderr', async () => {
    const { out, err } = await serveCli(
      ['mock', '--port', '0', '--log', 'json', '--virtual-time'],
      async (url, settled) => {
        await fetch(`${url}/api/session`);
        await fetch(`${url}/api/session/ses_nope`);
        await settled((printed) => printed.split('\n').length === 3);
      },
    );
    expect(err).toMatch(/^session-agent-sim mock: .*\nclock: virtual, still at 2026-11-22T09:00:00.000Z /);
    const records = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({ id: 'req_000001', method: 'GET', path: '/api/session', status: 200 }),
      expect.objectContaining({
        iso: '2026-11-22T09:00:00.000Z',
        partition: 'default',
        operationId: 'v2.session.get',
        layer: 'scenario',
        status: 404,
        tag: 'SessionNotFoundError',
      }),
    ]);
  });

  it('colours the lines only when FORCE_COLOR asks, the output being a pipe', async () => {
    for (const [env, coloured] of [
      [{}, false],
      [{ FORCE_COLOR: '1' }, true],
      [{ FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    ] as const) {
      const { out } = await serveCli(
        ['mock', '--port', '0'],
        async (url, settled) => {
          await fetch(`${url}/api/session`);
          await settled((printed) => printed.includes('req_000001'));
        },
        env,
      );
      expect(out.includes('\u001b['), JSON.stringify(env)).toBe(coloured);
    }
  });

  it('never prints a secret: the Authorization header and auth_token are masked, even with --verbose', async () => {
    const token = Buffer.from('alice:hunter2').toString('base64');
    const { out, err } = await serveCli(
      ['mock', '--port', '0', '--auth', 'alice:hunter2', '--verbose'],
      async (url, settled) => {
        expect((await fetch(`${url}/api/session`, { headers: { authorization: `Basic ${token}` } })).status).toBe(200);
        expect((await fetch(`${url}/api/session?auth_token=${token}`)).status).toBe(200);
        expect((await fetch(`${url}/api/session?auth_token=bm90LXRoZS1wYXNzd29yZA`)).status).toBe(401);
        await settled((printed) => exchangeLines(printed).length === 3);
      },
    );
    expect(out).toContain('> authorization: [REDACTED]');
    expect(exchangeLines(out)[1]).toContain('GET /api/session → 200');
    expect(exchangeLines(out)[2]).toContain('→ 401 UnauthorizedError');
    for (const secret of [token, 'hunter2', 'bm90LXRoZS1wYXNzd29yZA', 'auth_token'])
      expect(out + err, secret).not.toContain(secret);
  });

  it('refuses --log with another format, and --quiet with --log or --verbose', () => {
    const wrong = cli('mock', '--log', 'jsn');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--log must be "lines" or "json", got "jsn". Did you mean "json"?');
    const both = cli('mock', '--quiet', '--verbose');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--quiet prints no exchanges, so --verbose has nothing to change');
  });
});
