/**
 * The integrations a scenario without an `integrations` section lists: the real server always has a catalogue
 * (about 230 from models.dev), so a world without one would not look like it. A few well-known ones, sorted by
 * name as the real server sorts them, with each kind of method: a key, environment variables, an OAuth browser
 * flow, device flows, and a code to paste. One already holds a credential, so there is something to relabel.
 * No prompt has a `when`: the interface document's `{key, value}` and the real server's document, which
 * requires `op` too, accept no common one.
 */
import type { IntegrationItem } from './flows.js';

const BROWSER = 'Complete authorization in your browser. This window will close automatically.';
const DEVICE = 'Enter code: {userCode}';

export const DEFAULT_INTEGRATIONS: readonly IntegrationItem[] = [
  {
    id: 'anthropic',
    name: 'Anthropic',
    methods: [
      {
        type: 'oauth',
        id: 'claude-max',
        label: 'Claude Pro/Max',
        attempt: {
          mode: 'code',
          url: 'https://claude.ai/oauth/authorize?response_type=code&client_id=opencode&scope=user%3Ainference&state={state}',
          instructions: 'Paste the authorization code here: ',
        },
      },
      { type: 'key', label: 'API key' },
      { type: 'env', names: ['ANTHROPIC_API_KEY'] },
    ],
    connections: [{ type: 'credential', id: 'cred_203a62d81001vkrjQIC7ANyh3p', label: 'Work key' }],
  },
  {
    id: 'github-copilot',
    name: 'GitHub Copilot',
    methods: [
      {
        type: 'oauth',
        id: 'device',
        label: 'Login with GitHub',
        prompts: [
          {
            type: 'select',
            key: 'deploymentType',
            message: 'Which GitHub do you use?',
            options: [
              { label: 'GitHub.com', value: 'github.com' },
              { label: 'GitHub Enterprise', value: 'enterprise', hint: 'Self-hosted or data residency' },
            ],
          },
        ],
        attempt: { url: 'https://github.com/login/device', instructions: DEVICE },
      },
      { type: 'env', names: ['GITHUB_TOKEN'] },
    ],
    connections: [],
  },
  {
    id: 'openai',
    name: 'OpenAI',
    methods: [
      { type: 'key' },
      { type: 'env', names: ['OPENAI_API_KEY'] },
      {
        type: 'oauth',
        id: 'chatgpt-browser',
        label: 'ChatGPT Pro/Plus (browser)',
        attempt: {
          url: 'https://auth.openai.com/oauth/authorize?response_type=code&client_id=opencode&redirect_uri=http%3A%2F%2Flocalhost%3A1455%2Fauth%2Fcallback&scope=openid+profile+email+offline_access&state={state}',
          instructions: BROWSER,
        },
      },
      {
        type: 'oauth',
        id: 'chatgpt-headless',
        label: 'ChatGPT Pro/Plus (headless)',
        attempt: { url: 'https://auth.openai.com/codex/device', instructions: DEVICE },
      },
    ],
    connections: [],
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    methods: [
      { type: 'key', label: 'API key (service account)' },
      { type: 'env', names: ['OPENCODE_API_KEY'] },
      {
        type: 'oauth',
        id: 'device',
        label: 'OpenCode Console account',
        attempt: {
          url: 'https://opencode.ai/console/auth/device?user_code={userCode}',
          instructions: DEVICE,
          settles: { as: 'complete', after: '8s', label: 'Acme Inc' },
        },
      },
    ],
    connections: [],
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    methods: [{ type: 'key' }, { type: 'env', names: ['OPENROUTER_API_KEY'] }],
    connections: [],
  },
];
