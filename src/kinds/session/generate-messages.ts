/**
 * Believable conversation for sessions that ask for `generate: {count: N}`: users asking, the agent
 * answering, now and then an agent or model switch. Seeded, so the same scenario gives the same messages.
 */
import type { Random } from '../../state/random.js';

const ASKS = [
  'Add an avatar to the profile page',
  'Why does the login test fail on CI?',
  'Rename the settings route to /preferences',
  'Write a migration for the orders table',
  'Make the header sticky on mobile',
  'Explain what useSession returns',
  'Bump vite and fix the build',
  'Add dark mode to the dashboard',
];
const ANSWERS = [
  'Done: the component renders the avatar with a fallback to initials.',
  'The test relied on the local timezone; it now pins UTC.',
  'Renamed the route and updated the three links that pointed to it.',
  'Added the migration and a rollback; run `npm run db:migrate`.',
  'The header now uses position: sticky below 768px.',
  'It returns the current user, the token expiry and a refresh function.',
  'Upgraded vite and replaced the removed `build.polyfillDynamicImport` option.',
  'Dark mode follows the system setting and can be toggled in the menu.',
];
const AGENTS = ['build', 'plan', 'general'];
const MODELS = [
  { id: 'claude-sonnet-4-5', providerID: 'anthropic' },
  { id: 'gpt-5', providerID: 'openai' },
];

/** Kinds and bodies only; the caller gives each its id and time. */
export function generateMessages(random: Random, count: number): Array<Record<string, unknown> & { type: string }> {
  const out: Array<Record<string, unknown> & { type: string }> = [];
  let turn = 0;
  while (out.length < count) {
    const roll = random.next();
    if (roll < 0.06) out.push({ type: 'agent-switched', agent: random.pick(AGENTS) });
    else if (roll < 0.1) out.push({ type: 'model-switched', model: random.pick(MODELS) });
    else if (turn++ % 2 === 0) out.push({ type: 'user', text: random.pick(ASKS) });
    else {
      out.push({
        type: 'assistant',
        agent: random.pick(AGENTS),
        model: random.pick(MODELS),
        content: [{ type: 'text', id: `prt_${String(out.length).padStart(6, '0')}`, text: random.pick(ANSWERS) }],
      });
    }
  }
  return out;
}
