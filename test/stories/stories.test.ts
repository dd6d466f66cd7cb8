import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStory, runStory } from './run-story.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.story.yaml'));

describe.each(files)('%s', (file) => {
  const story = readStory(`${dir}${file}`);

  it('plays out as written, every answer valid against the spec', async () => {
    await runStory(story);
  });

  it('gives byte-identical answers when played twice', async () => {
    expect(await runStory(story)).toEqual(await runStory(story));
  });
});
