/**
 * The simulated terminal as a pure function: what typing prints, the state it leaves, when it exits; and
 * what a terminal has printed when a scenario starts it.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LINE, crlf, renderPrompt, typeInto, type Typed } from '../../../../src/kinds/pty/terminal.js';
import { freshTerminal, scriptFor, startingOutput } from '../../../../src/kinds/pty/script.js';
import type { PtyScript, TerminalState } from '../../../../src/kinds/pty/types.js';

const NOW = Date.UTC(2026, 10, 25, 19, 56, 52);
const bash = scriptFor('/bin/bash', ['-l']);
const CWD = '/home/dev/acme-web';

/** Types each message in turn, as a client's frames arrive, and joins what was printed. */
function session(script: PtyScript, ...messages: string[]): Typed & { outputs: string[] } {
  let terminal: TerminalState = freshTerminal(CWD);
  const outputs: string[] = [];
  let last: Typed = { output: '', terminal };
  for (const message of messages) {
    last = typeInto(script, terminal, message, { now: NOW });
    outputs.push(last.output);
    terminal = last.terminal;
    if (last.exitCode !== undefined) break;
  }
  return { ...last, output: outputs.join(''), outputs };
}

describe('the shell', () => {
  it('echoes each key as it is typed and answers the line on Enter, then prompts again', () => {
    const typed = session(bash, 'e', 'c', 'h', 'o', ' ', 'h', 'i', '\r');
    expect(typed.outputs).toEqual(['e', 'c', 'h', 'o', ' ', 'h', 'i', '\r\nhi\r\n$ ']);
    expect(typed.terminal).toEqual({ line: '', cwd: CWD, status: 0, escape: '' });
    expect(typed.exitCode).toBeUndefined();
  });

  it('answers pwd with the cwd, follows cd, and knows ~', () => {
    expect(session(bash, 'pwd\r').output).toBe(`pwd\r\n${CWD}\r\n$ `);
    const moved = session(bash, 'cd src\r', 'pwd\r', 'cd ..\r', 'cd\r', 'echo ~ $HOME $PWD\r');
    expect(moved.outputs[1]).toBe('pwd\r\n/home/dev/acme-web/src\r\n$ ');
    expect(moved.outputs[4]).toBe('echo ~ $HOME $PWD\r\n/home/dev /home/dev /home/dev\r\n$ ');
    expect(moved.terminal.cwd).toBe('/home/dev');
  });

  it('says an unknown command is not found as the shell would, and $? remembers it', () => {
    expect(session(bash, 'nosuchcmd --flag\r', 'echo $?\r').outputs).toEqual([
      'nosuchcmd --flag\r\nbash: nosuchcmd: command not found\r\n$ ',
      'echo $?\r\n127\r\n$ ',
    ]);
    expect(session(scriptFor('/bin/zsh', ['-l']), 'foo\r').output).toBe('foo\r\nzsh: command not found: foo\r\n$ ');
    expect(session(scriptFor('/bin/sh', []), 'foo\r').output).toBe('foo\r\nsh: 1: foo: not found\r\n$ ');
  });

  it('splits words as a shell does: quotes, backslashes, echo -n', () => {
    expect(session(bash, `echo 'a  b' "c $USER" d\\ e\r`).output).toBe(
      `echo 'a  b' "c $USER" d\\ e\r\na  b c dev d e\r\n$ `,
    );
    expect(session(bash, 'echo -n x\r').output).toBe('echo -n x\r\nx$ ');
  });

  it('answers whoami, date from the virtual clock, true, false and clear', () => {
    expect(session(bash, 'whoami\r').output).toBe('whoami\r\ndev\r\n$ ');
    expect(session(bash, 'date\r').output).toBe('date\r\nWed Nov 25 19:56:52 UTC 2026\r\n$ ');
    expect(session(bash, 'false\r').terminal.status).toBe(1);
    expect(session(bash, 'false\r', 'true\r').terminal.status).toBe(0);
    expect(session(bash, 'clear\r').output).toBe('clear\r\n\x1b[H\x1b[2J$ ');
  });

  it('exits on exit: with the last status or the one given, logout for a login shell', () => {
    const exited = session(bash, 'echo hi\r', 'exit\r', 'echo never\r');
    expect(exited.outputs).toEqual(['echo hi\r\nhi\r\n$ ', 'exit\r\nlogout\r\n']);
    expect(exited.exitCode).toBe(0);
    expect(session(bash, 'nosuchcmd\r', 'exit\r').exitCode).toBe(127);
    expect(session(scriptFor('/bin/sh', []), 'exit 3\r').output).toBe('exit 3\r\nexit\r\n');
    expect(session(bash, 'exit 300\r').exitCode).toBe(44);
    // Text typed after the exit in the same message is never read.
    expect(typeInto(bash, freshTerminal(CWD), 'exit\recho x\r', { now: NOW }).output).toBe('exit\r\nlogout\r\n');
  });

  it('edits the line: Backspace, Ctrl-U, Ctrl-C, and Ctrl-D exits only on an empty line', () => {
    expect(session(bash, 'echo hix', '\x7f', '\r').outputs).toEqual(['echo hix', '\b \b', '\r\nhi\r\n$ ']);
    expect(session(bash, '\x7f').output).toBe('');
    expect(session(bash, 'ab', '\x15').outputs[1]).toBe('\b \b\b \b');
    const interrupted = session(bash, 'sleep 10', '\x03');
    expect(interrupted.outputs[1]).toBe('^C\r\n$ ');
    expect(interrupted.terminal).toMatchObject({ line: '', status: 130 });
    expect(interrupted.exitCode).toBeUndefined();
    expect(session(bash, 'ab\x04').exitCode).toBeUndefined();
    expect(session(bash, '\x04')).toMatchObject({ output: 'logout\r\n', exitCode: 0 });
  });

  it('swallows escape sequences (arrow keys), even split across messages', () => {
    expect(session(bash, 'ec\x1b[A\x1b[1;5Dho x\x1bOA\r').output).toBe('echo x\r\nx\r\n$ ');
    const split = session(bash, 'a\x1b', '[', 'B', 'b');
    expect(split.outputs).toEqual(['a', '', '', 'b']);
    expect(split.terminal.line).toBe('ab');
  });

  it('takes a line no longer than its bound, ringing the bell past it', () => {
    const typed = typeInto(bash, freshTerminal(CWD), 'x'.repeat(MAX_LINE + 2), { now: NOW });
    expect(typed.terminal.line).toHaveLength(MAX_LINE);
    expect(typed.output.endsWith('\x07\x07')).toBe(true);
  });

  it("answers the scenario's replies first, by the line or a pattern, with their exit code", () => {
    const script = scriptFor('/bin/bash', ['-l'], {
      prompt: '\\u@\\h:\\w\\$ ',
      replies: [
        { input: 'npm test', output: 'Tests: 12 passed\n', exitCode: 0 },
        { match: '^git (status|st)$', output: 'On branch main\nnothing to commit', exitCode: 0 },
        { input: 'echo hi', output: 'scripted', exitCode: 3 },
      ],
    });
    const typed = session(script, '  npm test \r', 'git st\r', 'echo hi\r');
    expect(typed.outputs).toEqual([
      '  npm test \r\nTests: 12 passed\r\ndev@localhost:~/acme-web$ ',
      'git st\r\nOn branch main\r\nnothing to commit\r\ndev@localhost:~/acme-web$ ',
      'echo hi\r\nscripted\r\ndev@localhost:~/acme-web$ ',
    ]);
    expect(typed.terminal.status).toBe(3);
  });
});

describe('a program that is not a shell', () => {
  const dev = scriptFor('npm', ['run', 'dev']);

  it('only has what is typed echoed, and ends with Ctrl-C (130)', () => {
    expect(dev.interactive).toBe(false);
    expect(session(dev, 'rs\r', 'exit\r').output).toBe('rs\r\nexit\r\n');
    expect(session(dev, 'rs\r', 'exit\r').exitCode).toBeUndefined();
    expect(session(dev, '\x03')).toMatchObject({ output: '^C\r\n', exitCode: 130 });
  });

  it('is any command given one to run, a shell too', () => {
    expect(scriptFor('/bin/sh', ['-c', 'npm test', '-l']).interactive).toBe(false);
    expect(scriptFor('/usr/bin/fish', []).interactive).toBe(true);
  });
});

describe('what a terminal has printed at the start', () => {
  it('is its banner, its transcript at the prompt, then the prompt of a running shell', () => {
    const output = startingOutput(bash, CWD, {
      banner: 'Welcome\n',
      transcript: [{ input: 'git status', output: 'On branch main\n' }, { input: 'clear-ish' }],
      running: true,
    });
    expect(output).toBe('Welcome\r\n$ git status\r\nOn branch main\r\n$ clear-ish\r\n$ ');
    expect(startingOutput(bash, CWD, { transcript: 'raw\nlines', running: false })).toBe('raw\r\nlines');
    expect(startingOutput(scriptFor('npm', ['run', 'dev']), CWD, { running: true })).toBe('');
  });

  it('expands the prompt as bash would', () => {
    expect(renderPrompt('\\u@\\h \\W \\$ ', '/home/dev/acme-web/src')).toBe('dev@localhost src $ ');
    expect(renderPrompt('[\\w]# ', '/srv/app')).toBe('[/srv/app]# ');
    expect(renderPrompt('\\w\\$ ', '/root')).toBe('~# ');
    expect(crlf('a\nb\r\nc')).toBe('a\r\nb\r\nc');
  });
});
