/**
 * Every resource kind the simulator models, in the order a scenario lists their sections (a kind may refer to
 * those before it: a form to its session, an attempt to its integration; scenario-from infers them in this
 * order too, so a kind finds those it refers to already inferred). Adding a kind is its folder and one line here.
 */
import { agent } from './agent/agent.js';
import { attempt } from './attempt/attempt.js';
import { capability } from './capability/capability.js';
import { catalogOf } from './catalog.js';
import { command } from './command/command.js';
import { consoleKind } from './console/console.js';
import { file } from './file/file.js';
import { form } from './form/form.js';
import { integration } from './integration/integration.js';
import { model } from './model/model.js';
import { permission } from './permission/permission.js';
import { plugin } from './plugin/plugin.js';
import { projectCopy } from './project-copy/project-copy.js';
import { pty } from './pty/pty.js';
import { question } from './question/question.js';
import { reference } from './reference/reference.js';
import { resource } from './resource/resource.js';
import { server } from './server/server.js';
import { session } from './session/session.js';
import { shell } from './shell/shell.js';
import { skill } from './skill/skill.js';
import { tool } from './tool/tool.js';
import { workspace } from './workspace/workspace.js';
import { worktree } from './worktree/worktree.js';

export const KINDS = catalogOf([
  session,
  form,
  permission,
  question,
  shell,
  integration,
  attempt,
  pty,
  reference,
  plugin,
  file,
  model,
  agent,
  command,
  skill,
  tool,
  resource,
  capability,
  consoleKind,
  projectCopy,
  worktree,
  workspace,
  server,
]);
