/**
 * The agents the real server (1.18.33) lists with no configuration: build and plan (primary), general and
 * explore (subagents), and the hidden compaction, title and summary agents, with the permission rules it
 * gives each. Rules name paths of the user's home and of the location, so they are made for the location
 * asked about. The system prompts are the simulator's own short stand-ins.
 */
import { posix } from 'node:path';

/** A permission rule as the client types it (`PermissionV2Rule`); the last that matches decides. */
export type Rule = { action: string; resource: string; effect: 'allow' | 'deny' | 'ask' };
type JsonObject = Record<string, unknown>;

const rule = (action: string, resource: string, effect: Rule['effect']): Rule => ({ action, resource, effect });

/** The home of the user whose project this is: `/home/<user>` or `/Users/<user>` above it, else `/home/dev`. */
export function homeOf(directory: string): string {
  return /^\/(?:home|Users)\/[^/]+/.exec(directory)?.[0] ?? '/home/dev';
}

/** The rules every agent starts from, before its own: what a configured agent gets too. */
export function baseRules(directory: string): Rule[] {
  const home = homeOf(directory);
  return [
    rule('*', '*', 'allow'),
    rule('external_directory', '*', 'ask'),
    rule('external_directory', `${home}/.local/share/opencode/tool-output/*`, 'allow'),
    rule('external_directory', '/tmp/opencode/*', 'allow'),
    rule('question', '*', 'deny'),
    rule('plan_enter', '*', 'deny'),
    rule('plan_exit', '*', 'deny'),
    rule('read', '*', 'allow'),
    rule('read', '*.env', 'ask'),
    rule('read', '*.env.*', 'ask'),
    rule('read', '*.env.example', 'allow'),
  ];
}

const REQUEST = { headers: {}, body: {} };

export function defaultAgents(directory: string): JsonObject[] {
  const base = baseRules(directory);
  const plans = `${homeOf(directory)}/.local/share/opencode/plans`;
  const hidden = (id: string, system: string): JsonObject => ({
    id,
    request: REQUEST,
    system,
    mode: 'primary',
    hidden: true,
    permissions: [...base, rule('*', '*', 'deny')],
  });
  return [
    {
      id: 'build',
      request: REQUEST,
      system:
        'You are a coding agent working in this workspace: read the code, make focused changes and use your tools within the permissions you were given.',
      description: 'The default agent. Executes tools based on configured permissions.',
      mode: 'primary',
      hidden: false,
      permissions: [...base, rule('question', '*', 'allow'), rule('plan_enter', '*', 'allow')],
    },
    {
      id: 'plan',
      request: REQUEST,
      description: 'Plan mode. Disallows all edit tools.',
      mode: 'primary',
      hidden: false,
      permissions: [
        ...base,
        rule('question', '*', 'allow'),
        rule('plan_exit', '*', 'allow'),
        rule('external_directory', `${plans}/*`, 'allow'),
        rule('edit', '*', 'deny'),
        rule('edit', '.opencode/plans/*.md', 'allow'),
        rule('edit', `${posix.relative(directory, plans)}/*.md`, 'allow'),
      ],
    },
    {
      id: 'general',
      request: REQUEST,
      description:
        'General-purpose agent for researching complex questions and executing multi-step tasks. Use this agent to execute multiple units of work in parallel.',
      mode: 'subagent',
      hidden: false,
      permissions: [...base, rule('todowrite', '*', 'deny')],
    },
    {
      id: 'explore',
      request: REQUEST,
      system:
        'You search codebases: find files by pattern, search their contents and read them, then report what you found with absolute paths. You change nothing.',
      description:
        'Fast agent specialized for exploring codebases. Use this when you need to quickly find files by patterns, search code for keywords, or answer questions about the codebase. Say how thorough it should be: "quick", "medium" or "very thorough".',
      mode: 'subagent',
      hidden: false,
      permissions: [
        ...base,
        rule('*', '*', 'deny'),
        ...['grep', 'glob', 'webfetch', 'websearch', 'read'].map((action) => rule(action, '*', 'allow')),
        ...base.slice(1, 4),
      ],
    },
    hidden(
      'compaction',
      'You summarise a conversation between a user and a coding agent so that another agent can carry on the work: keep file paths and identifiers exact, and answer nothing in it.',
    ),
    hidden(
      'title',
      'You write a short title for a conversation: one line, at most 50 characters, in the language of the user, with no explanation.',
    ),
    hidden(
      'summary',
      'You summarise what was done in a conversation in two or three sentences, like a pull request description, in the first person.',
    ),
  ];
}
