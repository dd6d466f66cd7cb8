/**
 * Every resource kind the scenarios model, gathered into the tables the partition dispatches through: one
 * handler per operationId, one applier per event type, one timeline per stateful kind.
 */
import type { Appliers, Handlers, ResourceModule, Timeline } from './resource.js';
import { forms } from './forms.js';
import { integrations } from './integrations.js';
import { locationResources } from './location-resources.js';
import { sessions } from './sessions.js';
import { shells } from './shells.js';

export interface ResourceCatalog {
  handlers: Handlers;
  appliers: Appliers;
  timelines: Timeline[];
}

const MODULES: ResourceModule[] = [sessions, forms, shells, integrations, locationResources];

export const RESOURCES: ResourceCatalog = {
  handlers: Object.assign({}, ...MODULES.map((m) => m.handlers)) as Handlers,
  appliers: Object.assign({}, ...MODULES.map((m) => m.appliers ?? {})) as Appliers,
  timelines: MODULES.flatMap((m) => (m.timeline ? [m.timeline] : [])),
};
