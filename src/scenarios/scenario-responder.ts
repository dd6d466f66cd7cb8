/**
 * Answers the operations the scenario's resources model, through one lookup table by operationId; every
 * other operation falls through to the next layer.
 */
import type { Clock } from '../clock.js';
import type { ProjectContext } from '../location.js';
import { formHandlers } from '../resources/forms.js';
import type { Handlers } from '../resources/handler.js';
import { sessionHandlers } from '../resources/sessions.js';
import { shellHandlers } from '../resources/shells.js';
import type { Responder } from '../responders.js';
import type { ScenarioHost } from './scenario-host.js';

const HANDLERS: Handlers = { ...sessionHandlers, ...formHandlers, ...shellHandlers };

export function scenarioResponder(host: ScenarioHost, clock: Clock, project: ProjectContext): Responder {
  return {
    name: 'scenario',
    respond: async (request) => HANDLERS[request.operation.operationId]?.(request, { world: host.world, now: clock.now(), project }),
  };
}
