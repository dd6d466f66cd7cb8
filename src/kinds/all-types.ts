/**
 * Every kind's types, re-exported by namespace: their `declare module` additions to `WorldSnapshot`,
 * `WorldTables` and the event catalog then reach the declarations a user of the package gets (a module only
 * imported for its additions would be left out of them, and `state().forms` would not type-check).
 */
export type * as agent from './agent/types.js';
export type * as attempt from './attempt/types.js';
export type * as capability from './capability/types.js';
export type * as command from './command/types.js';
export type * as console from './console/types.js';
export type * as file from './file/types.js';
export type * as form from './form/types.js';
export type * as integration from './integration/types.js';
export type * as model from './model/types.js';
export type * as permission from './permission/types.js';
export type * as plugin from './plugin/types.js';
export type * as projectCopy from './project-copy/types.js';
export type * as pty from './pty/types.js';
export type * as question from './question/types.js';
export type * as reference from './reference/types.js';
export type * as resource from './resource/types.js';
export type * as session from './session/types.js';
export type * as shell from './shell/types.js';
export type * as skill from './skill/types.js';
export type * as tool from './tool/types.js';
export type * as workspace from './workspace/types.js';
export type * as worktree from './worktree/types.js';
