/**
 * The virtual file tree behind `GET /api/fs/list`: a flat list of paths becomes, per directory, its direct
 * children as the real server lists them (directories first, each group sorted, directories ending in '/').
 */
import type { FileTree } from './types.js';

type Entry = { path: string; type: 'file' | 'directory' };

export function buildFileTree(paths: readonly string[]): FileTree {
  const children = new Map<string, Map<string, Entry>>([['', new Map()]]);
  const add = (parent: string, entry: Entry) => {
    let siblings = children.get(parent);
    if (!siblings) children.set(parent, (siblings = new Map()));
    siblings.set(entry.path, entry);
  };
  for (const raw of paths) {
    const isDirectory = raw.endsWith('/');
    const parts = raw.split('/').filter(Boolean);
    let parent = '';
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const type = last && !isDirectory ? 'file' : 'directory';
      const path = `${parent}${part}${type === 'directory' ? '/' : ''}`;
      add(parent, { path, type });
      if (type === 'directory' && !children.has(path)) children.set(path, new Map());
      parent = path;
    });
  }
  const tree: Record<string, Entry[]> = {};
  for (const [dir, entries] of children) {
    tree[dir] = [...entries.values()].sort((a, b) =>
      a.type === b.type ? a.path.localeCompare(b.path) : a.type === 'directory' ? -1 : 1,
    );
  }
  return tree;
}
