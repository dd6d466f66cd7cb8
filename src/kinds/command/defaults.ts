/**
 * The commands the real server (1.18.33) lists with no configuration, init and review, with its
 * descriptions; the templates are the simulator's own short stand-ins for the real prompts.
 */
export const DEFAULT_COMMANDS = [
  {
    name: 'init',
    template: [
      'Create or update `AGENTS.md` for this repository: a short file of what a coding agent would get wrong here',
      'without help (exact build, test and lint commands, how to run one test, layout and conventions that are not',
      'obvious from the code). Read the README, manifests, CI and existing instruction files first; keep only what',
      'you verified.',
      '',
      'Focus or constraints from the user:',
      '$ARGUMENTS',
    ].join('\n'),
    description: 'guided AGENTS.md setup',
  },
  {
    name: 'review',
    template: [
      'Review code changes and give actionable feedback: bugs first, then risks, then style.',
      '',
      'Input: $ARGUMENTS',
      '',
      'With no input, review the uncommitted changes (`git diff` and `git diff --cached`); a commit hash, a branch',
      'or a pull request number names what to review instead. Quote file and line for each finding.',
    ].join('\n'),
    description: 'review changes [commit|branch|pr], defaults to uncommitted',
    subtask: true,
  },
];
