/**
 * The skill the real server (1.18.33) lists with no configuration, built in, with its name, description and
 * location; the content is the simulator's own short stand-in for the real one.
 */
export const DEFAULT_SKILLS = [
  {
    name: 'customize-opencode',
    description:
      "Use ONLY when the user is editing or creating opencode's own configuration: opencode.json, opencode.jsonc, files under .opencode/, or files under ~/.config/opencode/. Also use when creating or fixing opencode agents, subagents, commands, skills, plugins, MCP servers, or permission rules. Do not use for the user's own application code, or for any project that is not configuring opencode itself.",
    location: '/builtin/customize-opencode.md',
    content: [
      '# Customizing opencode',
      '',
      'Configuration lives in `opencode.json` (or `opencode.jsonc`) at the project root and in `~/.config/opencode/`;',
      'project settings win over global ones.',
      '',
      '- Agents: `agent` in the config, or one markdown file per agent under `.opencode/agent/` with front matter',
      '  (`description`, `mode`, `model`, `permission`).',
      '- Commands: `command` in the config, or markdown templates under `.opencode/command/`; `$ARGUMENTS` is',
      '  replaced by what follows the command.',
      '- Skills: a folder with a `SKILL.md` under `.opencode/skill/`.',
      '- Permissions: rules of `action`, `resource` pattern and `allow`, `ask` or `deny`; the last matching rule wins.',
      '- MCP servers: `mcp` in the config, local (`command`) or remote (`url`).',
      '',
      'Check the result by restarting opencode and listing agents, commands and skills.',
    ].join('\n'),
  },
];
