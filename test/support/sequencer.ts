/**
 * The order files start in: the same on a clean clone as on a warm machine. vitest's own order runs projects
 * one after the other and, without its cache (CI's clean clone has none), the largest files first, so the
 * longest file (the documents' blocks) could start last and run alone at the end.
 *
 * Here it starts first, on a worker of its own, and the files that share a worker (the `shared` project, whose
 * modules stay loaded from one file to the next) follow in one run, so that a worker that has loaded src/
 * keeps it. The files in processes of their own come last, the real server's turns first among them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, as measured: each mostly waits on the processes it starts. */
export const FIRST = 'test/docs/doc-blocks.test.ts';
export const FIRST_ALONE = 'test/real-server/turn-fidelity-real.test.ts';

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = `${files[0]?.project.config.root ?? ''}/`;
    const rank = (spec: TestSpecification): number => {
      const path = spec.moduleId.replace(root, '');
      if (path === FIRST) return 0;
      if (!spec.project.config.isolate) return 1;
      return path === FIRST_ALONE ? 2 : 3;
    };
    // vitest's order within each rank: by the duration it last saw, or by size.
    const known = await super.sort(files);
    return known.sort((a, b) => rank(a) - rank(b));
  }
}
