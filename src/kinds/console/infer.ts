/**
 * The Console orgs (scenario-from, the console kind's part): the first org list, with the providers the
 * first console state said the active org manages.
 */
import type { Timeline } from '../inference.js';
import { firstAnswer, isObject, type Inferred, type JsonObject } from '../inference.js';

export function inferConsole(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'experimental.console.listOrgs');
  const state = firstAnswer(timeline, 'experimental.console.get');
  const orgs = (((listing?.answer as JsonObject | undefined)?.orgs as unknown[] | undefined) ?? []).filter(isObject);
  if (!listing || !orgs.length) return {};
  const managed = ((state?.answer as JsonObject | undefined)?.consoleManagedProviders as string[] | undefined) ?? [];
  const value = {
    orgs: orgs.map((org) => (org.active && managed.length ? { ...org, providers: managed } : org)),
  };
  return { console: [{ value, from: state ? [listing, state] : [listing], whole: true }] };
}
