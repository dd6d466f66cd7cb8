/**
 * A prompt's files as the server keeps them. The client names a file by its `uri` alone (the real document's
 * PromptInputFileAttachment has no `mime`, and refuses one); what the server stores and answers with from then
 * on (PromptFileAttachment: the admission, the user message, the prompted events) carries the file's media
 * type, which the server works out itself. Kept as given, the input made every later listing of the session
 * break the document it is listed by.
 */
import { contentType } from '../file/contents.js';
import type { Prompt } from './types.js';

type FileInput = Omit<NonNullable<Prompt['files']>[number], 'mime'>;

/** The prompt a client sent, with each file given the media type the server knows it by. */
export function storedPrompt(input: Omit<Prompt, 'files'> & { files?: FileInput[] }): Prompt {
  const { files, ...rest } = input;
  return files ? { ...rest, files: files.map((file) => ({ ...file, mime: mediaType(file.uri) })) } : rest;
}

/**
 * A `data:` URI says its own type (text/plain when it says none, as RFC 2397 has it); any other is typed by
 * the extension of its path, as the server types the files it reads (`application/octet-stream` when it
 * knows none).
 */
function mediaType(uri: string): string {
  if (/^data:/i.test(uri)) {
    const declared = /^data:([^;,]*)/i.exec(uri)?.[1]?.trim().toLowerCase();
    return declared || 'text/plain';
  }
  let path = uri;
  try {
    path = decodeURIComponent(new URL(uri).pathname);
  } catch {
    // not a URL: a bare path, typed as written
  }
  return contentType(path);
}
