/**
 * What a prompt asks for, read from its words so a generated turn can answer it: the kind of work (its
 * leading verb, or a question), what it is about, and the project files it most likely lives in. Plain
 * string matching, no randomness: the same prompt always reads the same.
 */

export type Intent = 'add' | 'fix' | 'change' | 'remove' | 'test' | 'explain' | 'other';

export interface PromptTopic {
  intent: Intent;
  /** The verb as the prompt wrote it, in the past tense (`Added`), when it starts with one. */
  done?: string;
  /** What the work is on, as the prompt says it after its verb ("a dark mode toggle"); may be empty. */
  subject: string;
  /** The prompt itself, shortened for quoting. */
  quoted: string;
  /** A camelCase name for what the change introduces (`darkModeToggle`). */
  name: string;
  /**
   * The files the work most likely belongs in: those the prompt's words or topic point at most (all of them
   * when nothing points anywhere), in the order given.
   */
  likely(files: readonly string[]): string[];
}

const VERBS: Record<string, Exclude<Intent, 'explain' | 'other'>> = {
  add: 'add',
  create: 'add',
  implement: 'add',
  build: 'add',
  introduce: 'add',
  support: 'add',
  write: 'add',
  show: 'add',
  display: 'add',
  allow: 'add',
  enable: 'add',
  fix: 'fix',
  repair: 'fix',
  resolve: 'fix',
  debug: 'fix',
  handle: 'fix',
  rename: 'change',
  move: 'change',
  refactor: 'change',
  update: 'change',
  change: 'change',
  bump: 'change',
  upgrade: 'change',
  replace: 'change',
  migrate: 'change',
  make: 'change',
  convert: 'change',
  extract: 'change',
  improve: 'change',
  simplify: 'change',
  clean: 'change',
  speed: 'change',
  optimise: 'change',
  optimize: 'change',
  translate: 'change',
  remove: 'remove',
  delete: 'remove',
  drop: 'remove',
  disable: 'remove',
  hide: 'remove',
  test: 'test',
  cover: 'test',
};
const IRREGULAR: Record<string, string> = { make: 'made', write: 'wrote', build: 'built', show: 'showed' };
const DOUBLED = new Set(['drop', 'stop', 'strip', 'wrap', 'ship', 'plan']);
const QUESTION =
  /^(why|what|how|where|when|which|who|whose|explain|describe|is|are|does|do|did|can|could|should|would)\b/i;
/** Words before the verb that ask politely and say nothing of the work. */
const POLITE = /^(please|pls|now|also|then|and|ok(ay)?|could you|can you|would you|i want you to|let's|lets)\b[\s,]*/i;
const STOPWORDS = new Set(
  'a an the to of for on in at by with and or from into onto it its this that these those our my your new all some every page please so when'.split(
    ' ',
  ),
);

/** Topics a prompt may be about, each with the words of the files such work usually touches. */
const TOPICS: Array<{ words: RegExp; files: RegExp }> = [
  { words: /\b(dark|light)[ -]?mode|\btheme|\bcolou?r scheme/i, files: /theme|settings|header|layout|app\./i },
  { words: /\blog[ -]?in|\blog[ -]?out|\bauth|\bsign[ -]?(in|up|out)|\bpassword/i, files: /login|auth|session|user/i },
  { words: /\broute|\brouter|\burl\b|\blinks?\b|\bnav/i, files: /route|router|nav|header|app\./i },
  {
    words: /\bheader|\bfooter|\bsidebar|\bsticky|\bmobile|\bresponsive|\bcss\b|\bstyle|\blayout/i,
    files: /header|footer|sidebar|layout|style/i,
  },
  { words: /\bapi\b|\bfetch|\brequest|\bendpoint|\bclient\b|\bcach/i, files: /api|client|fetch|request/i },
  { words: /\bavatar|\bprofile|\baccount|\buser/i, files: /avatar|profile|account|user/i },
  { words: /\bsettings?\b|\bpreferences?\b|\boptions?\b|\btoggle/i, files: /settings|preferences|options/i },
  { words: /\btests?\b|\bspec\b|\bci\b/i, files: /test|spec/i },
];

function pastTense(verb: string): string {
  const lower = verb.toLowerCase();
  const past =
    IRREGULAR[lower] ??
    (lower.endsWith('e')
      ? `${lower}d`
      : /[^aeiou]y$/.test(lower)
        ? `${lower.slice(0, -1)}ied`
        : DOUBLED.has(lower)
          ? `${lower}${lower.slice(-1)}ed`
          : `${lower}ed`);
  return past.charAt(0).toUpperCase() + past.slice(1);
}

/** Up to three significant words of the subject as one camelCase identifier. */
function nameOf(subject: string): string {
  const words = subject
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w) && !/^\d/.test(w))
    .slice(0, 3);
  if (!words.length) return 'enabled';
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

const shorten = (text: string, max: number) => {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 3);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}...`;
};

export function readPrompt(prompt: string): PromptTopic {
  const text = prompt.replace(/\s+/g, ' ').trim();
  const quoted = shorten(text, 80);
  const bare = text.replace(POLITE, '').replace(POLITE, '');
  const [first = '', ...rest] = bare.split(' ');
  const verb = first.toLowerCase().replace(/[^a-z]/g, '');
  const asks = text.endsWith('?') || QUESTION.test(bare);
  const known = VERBS[verb];
  const intent: Intent = asks && !known ? 'explain' : (known ?? (asks ? 'explain' : 'other'));
  // A second verb after "and" is done too: "Bump vite and fix the build" → "Bumped vite and fixed the build".
  const subject =
    known === undefined || intent === 'explain'
      ? ''
      : shorten(
          rest
            .join(' ')
            .replace(/[.!?]+$/, '')
            .replace(/\band (\w+)/gi, (all, next: string) =>
              VERBS[next.toLowerCase()] ? `and ${pastTense(next).toLowerCase()}` : all,
            ),
          70,
        );
  const topics = TOPICS.filter((t) => t.words.test(text));
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 3 && !STOPWORDS.has(w));
  const base = (file: string) => file.replace(/^.*\//, '').toLowerCase();
  const score = (file: string) =>
    words.filter((w) => base(file).includes(w)).length * 2 + topics.filter((t) => t.files.test(base(file))).length;
  return {
    intent,
    ...(known && intent !== 'explain' ? { done: pastTense(first.replace(/[^A-Za-z]/g, '')) } : {}),
    subject,
    quoted,
    name: nameOf(subject || text),
    likely: (files) => {
      const best = Math.max(0, ...files.map(score));
      return files.filter((file) => score(file) === best);
    },
  };
}
