/**
 * The built-in tools of the real server (1.18.33), in its order, with the parameters it takes and which
 * models get them: GPT-5 models edit through apply_patch instead of edit and write, and websearch comes
 * with the opencode provider. The descriptions are the simulator's own short stand-ins. This is what the
 * listing answers, and the real one still names `filePath` where the tools the runtime offers its model take
 * `path` (spec/tools.json, which scenarios' tool calls are held to): the two are kept apart on purpose.
 */
type JsonObject = Record<string, unknown>;

const SCHEMA = 'https://json-schema.org/draft/2020-12/schema';
const INT = { minimum: 0, type: 'integer', maximum: Number.MAX_SAFE_INTEGER };
const str = (description: string) => ({ type: 'string', description });
const object = (properties: JsonObject, required: string[]) => ({
  $schema: SCHEMA,
  type: 'object',
  properties,
  required,
});

/** Which models get a GPT-5 tool set: matched against `provider/model`. */
const GPT5 = '/gpt-5';

export const DEFAULT_TOOLS: JsonObject[] = [
  {
    id: 'invalid',
    description: 'Do not use',
    parameters: object({ tool: { type: 'string' }, error: { type: 'string' } }, ['tool', 'error']),
  },
  {
    id: 'question',
    description: 'Ask the user one or more questions while you work, each with choices to pick from.',
    parameters: object(
      {
        questions: {
          type: 'array',
          description: 'Questions to ask',
          items: {
            type: 'object',
            properties: {
              question: str('Complete question'),
              header: str('Very short label (max 30 chars)'),
              options: {
                type: 'array',
                description: 'Available choices',
                items: {
                  type: 'object',
                  properties: {
                    label: str('Display text (1-5 words, concise)'),
                    description: str('Explanation of choice'),
                  },
                  required: ['label', 'description'],
                },
              },
              multiple: { type: 'boolean', description: 'Allow selecting multiple choices' },
            },
            required: ['question', 'header', 'options'],
          },
        },
      },
      ['questions'],
    ),
  },
  {
    id: 'bash',
    description: 'Run a bash command in the workspace, with an optional timeout and working directory.',
    parameters: object(
      {
        command: str('The command to execute'),
        timeout: { ...INT, minimum: 1, description: 'Optional timeout in milliseconds' },
        workdir: str('The working directory to run the command in. Defaults to the current directory.'),
      },
      ['command'],
    ),
  },
  {
    id: 'read',
    description: 'Read a file or a directory of the local filesystem, up to 2000 lines from an offset.',
    parameters: object(
      {
        filePath: str('The absolute path to the file or directory to read'),
        offset: { ...INT, description: 'The line number to start reading from (1-indexed)' },
        limit: { ...INT, description: 'The maximum number of lines to read (defaults to 2000)' },
      },
      ['filePath'],
    ),
  },
  {
    id: 'glob',
    description: 'Find files by name with a glob pattern such as "src/**/*.ts".',
    parameters: object(
      { pattern: str('The glob pattern to match files against'), path: str('The directory to search in') },
      ['pattern'],
    ),
  },
  {
    id: 'grep',
    description: 'Search file contents with a regular expression; returns matching files and lines.',
    parameters: object(
      {
        pattern: str('The regex pattern to search for in file contents'),
        path: str('The directory to search in. Defaults to the current working directory.'),
        include: str('File pattern to include in the search (e.g. "*.js", "*.{ts,tsx}")'),
      },
      ['pattern'],
    ),
  },
  {
    id: 'edit',
    description: 'Replace an exact string in a file with another.',
    parameters: object(
      {
        filePath: str('The absolute path to the file to modify'),
        oldString: str('The text to replace'),
        newString: str('The text to replace it with (must be different from oldString)'),
        replaceAll: { type: 'boolean', description: 'Replace all occurrences of oldString (default false)' },
      },
      ['filePath', 'oldString', 'newString'],
    ),
    except: GPT5,
  },
  {
    id: 'write',
    description: 'Write a file, replacing it if it exists.',
    parameters: object(
      {
        content: str('The content to write to the file'),
        filePath: str('The absolute path to the file to write (must be absolute, not relative)'),
      },
      ['content', 'filePath'],
    ),
    except: GPT5,
  },
  {
    id: 'task',
    description: 'Hand a multi-step task to a subagent, which works on it on its own and reports back.',
    parameters: object(
      {
        description: str('A short (3-5 words) description of the task'),
        prompt: str('The task for the agent to perform'),
        subagent_type: str('The type of specialized agent to use for this task'),
        task_id: str('Set only to resume a previous task'),
        command: str('The command that triggered this task'),
      },
      ['description', 'prompt', 'subagent_type'],
    ),
  },
  {
    id: 'webfetch',
    description: 'Fetch a URL and return its content as markdown, text or HTML.',
    parameters: object(
      {
        url: str('The URL to fetch content from'),
        format: {
          type: 'string',
          enum: ['text', 'markdown', 'html'],
          description: 'The format to return the content in',
          default: 'markdown',
        },
        timeout: { type: 'number', description: 'Optional timeout in seconds (max 120)' },
      },
      ['url'],
    ),
  },
  {
    id: 'todowrite',
    description: 'Keep a todo list for the session: tasks with their status and priority.',
    parameters: object(
      {
        todos: {
          type: 'array',
          description: 'The updated todo list',
          items: {
            type: 'object',
            properties: {
              content: str('Brief description of the task'),
              status: str('Current status of the task: pending, in_progress, completed, cancelled'),
              priority: str('Priority level of the task: high, medium, low'),
            },
            required: ['content', 'status', 'priority'],
          },
        },
      },
      ['todos'],
    ),
  },
  {
    id: 'websearch',
    description: 'Search the web and return the results with their sources.',
    parameters: object(
      { query: str('The search query'), numResults: { ...INT, description: 'How many results (default 8)' } },
      ['query'],
    ),
    only: '^opencode/',
  },
  {
    id: 'skill',
    description: 'Load a skill listed in the system prompt into the conversation.',
    parameters: object({ name: str('The name of the skill from available_skills') }, ['name']),
  },
  {
    id: 'apply_patch',
    description: 'Edit files with a patch: added, updated and deleted files between *** Begin Patch and *** End Patch.',
    parameters: object({ patchText: str('The full patch text that describes all changes to be made') }, ['patchText']),
    only: GPT5,
  },
];
