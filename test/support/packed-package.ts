/**
 * This checkout as a consumer gets it, for the tests that install an example project: `packedPackage()` packs
 * it once and `installExample()` installs an example from that tarball into a temp project of its own.
 *
 * The tarball is packed from a copy of the sources (without dist/, node_modules/ linked in), for the reasons
 * test/package/package.test.ts gives. Packing takes a build, so it is shared: the tarball is kept in the
 * system's temp folder under a hash of the sources, and every caller (another test file, another worker,
 * another run over the same sources) reuses it. A lock beside it keeps two processes from building the same
 * one at once; a tarball only ever appears whole (renamed into place), so even a broken lock costs time, not
 * correctness. Tarballs of other sources are removed once an hour has passed without a caller.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** `npm pack` builds (about 25 s here); an install from npm's cache takes about 15 s. */
const NPM_PACK_TIMEOUT = 120_000;
export const INSTALL_TIMEOUT = 120_000;
/** A lock older than this was left by a process that died: its `npm pack` would have been killed by now. */
const STALE_LOCK = NPM_PACK_TIMEOUT + 30_000;
/** How long a caller waits for another process's pack: out of a dead one's lock, and a takeover's pack. */
const WAIT = STALE_LOCK + NPM_PACK_TIMEOUT;
/** The longest `packedPackage()` can take (the wait, then a pack of its own), for a hook's timeout. */
export const PACK_TIMEOUT = WAIT + NPM_PACK_TIMEOUT + 30_000;

const PREFIX = 'session-agent-sim-pack-';
/** Tarballs of other sources, and abandoned work folders, unused for this long are removed. */
const UNUSED = 60 * 60_000;

/**
 * The environment without what `npm test` adds (npm_config_local_prefix and friends name this checkout):
 * the npm commands here must act on the temp directories only.
 */
export const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(npm_|init_cwd$)/i.test(name)),
);

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command to its end or its timeout (then `code` is -1 and `stderr` says why); never rejects. */
export function run(
  command: string,
  args: string[],
  { cwd, timeout, env = cleanEnv }: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env, timeout, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const why = error && code === -1 ? `\n${error.message}` : '';
        resolve({ code, stdout, stderr: `${stderr}${why}` });
      },
    );
  });
}

/** Fails with the command's output unless it exited 0. */
export function ensureSuccess(result: Run, what: string): void {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
}

/** What `npm pack --json` says of a tarball it made. */
export interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string }>;
  integrity: string;
}

/** Kept beside each tarball: `npm pack --json`'s account of it. */
const PACK_RESULT = 'pack.json';

/** What npm said when it packed `tarball` (a path `packedPackage()` gave). */
export function packResult(tarball: string): PackResult {
  return JSON.parse(readFileSync(join(dirname(tarball), PACK_RESULT), 'utf8')) as PackResult;
}

let packing: Promise<string> | undefined;

/** The path of a tarball packed from this checkout's sources as they are now; packed at most once for them. */
export function packedPackage(): Promise<string> {
  packing ??= packOnce().catch((error: unknown) => {
    packing = undefined; // a later caller tries again
    throw error;
  });
  return packing;
}

async function packOnce(): Promise<string> {
  const files = sources();
  const dir = join(tmpdir(), `${PREFIX}${hash(files)}`);
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT;
  for (;;) {
    const done = tarballIn(dir);
    if (done) {
      markUsed(dir);
      return done;
    }
    if (takeLock(lock)) {
      try {
        return tarballIn(dir) ?? (await pack(files, dir));
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    if (Date.now() > deadline) throw new Error(`waited too long for another process packing into ${dir}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The files a pack starts from: those git tracks or would track (so no build output, no installed folder, no
 * log), or, outside a git checkout, every file but those; but none the build never reads, so that editing a
 * test or a page reuses the tarball.
 */
function sources(): string[] {
  return trackedFiles().filter((file) => !NOT_BUILT_FROM.some((folder) => file.startsWith(folder)));
}

const NOT_BUILT_FROM = ['test/', 'docs/', 'bench/', 'examples/', '.ci/'];

function trackedFiles(): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 20_000,
      maxBuffer: 16 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // A file deleted but not yet staged is still listed
    return listed
      .split('\0')
      .filter((file) => file && isFile(join(REPO, file)))
      .sort();
  } catch {
    return walk(REPO).sort();
  }
}

const NOT_SOURCES = new Set(['node_modules', 'dist', 'coverage', '.git']);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCES.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.isFile() ? [relative(REPO, path)] : [];
  });
}

/** Keeps a tarball in use from being pruned as unused. */
function markUsed(dir: string): void {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // pruned meanwhile: the caller's path is gone, and its install will say so
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function hash(files: string[]): string {
  const digest = createHash('sha256');
  for (const file of files)
    digest
      .update(`${file}\0`)
      .update(readFileSync(join(REPO, file)))
      .update('\0');
  return digest.digest('hex').slice(0, 16);
}

function tarballIn(dir: string): string | undefined {
  try {
    const names = readdirSync(dir);
    const name = names.find((file) => file.endsWith('.tgz'));
    return name && names.includes(PACK_RESULT) ? join(dir, name) : undefined;
  } catch {
    return undefined;
  }
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK) return false;
    rmSync(lock, { recursive: true, force: true });
    mkdirSync(lock);
    return true;
  } catch {
    return false; // released meanwhile, or another process took it over: look again
  }
}

async function pack(files: string[], dir: string): Promise<string> {
  prune(dir);
  const work = mkdtempSync(join(tmpdir(), `${PREFIX}work-`));
  try {
    const stage = join(work, 'stage');
    for (const file of files) {
      mkdirSync(dirname(join(stage, file)), { recursive: true });
      cpSync(join(REPO, file), join(stage, file));
    }
    // The build tools from this checkout, but a cache directory of the copy's own (.cache is not linked).
    mkdirSync(join(stage, 'node_modules'));
    for (const entry of readdirSync(join(REPO, 'node_modules'))) {
      if (entry.startsWith('.') && entry !== '.bin') continue;
      symlinkSync(join(REPO, 'node_modules', entry), join(stage, 'node_modules', entry));
    }
    const result = await run('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: stage,
      timeout: NPM_PACK_TIMEOUT,
    });
    ensureSuccess(result, 'npm pack');
    // prepare's own output precedes the JSON on stdout
    const [packed] = JSON.parse(result.stdout.slice(result.stdout.search(/^\[/m))) as [PackResult];
    mkdirSync(dir, { recursive: true });
    // What npm said it packed goes first: a tarball is only ever found with it.
    writeFileSync(join(work, PACK_RESULT), JSON.stringify(packed));
    renameSync(join(work, PACK_RESULT), join(dir, PACK_RESULT));
    renameSync(join(work, packed.filename), join(dir, packed.filename)); // whole, or not there at all
    return join(dir, packed.filename);
  } finally {
    rmSync(work, { recursive: true, force: true }); // unlinks the node_modules links, never follows them
  }
}

/** Removes the tarballs of other sources and the work folders nobody has used for an hour. */
function prune(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(PREFIX) || path === keep || path === `${keep}.lock`) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

/**
 * Copies an example project (without its node_modules/ and lock file) to a new temp folder, points its
 * `session-agent-sim` dependency at `tarball`, and installs it from npm's cache where it can. Returns the
 * project folder; the caller removes it.
 *
 * An install is kept (its node_modules/ and lock file) under a hash of what npm resolves it from: the
 * project's manifest but for the tarball's path, the package's own manifest, and the Node line. The next
 * install of that example copies it instead of running npm again (about 16 processor-seconds), also from the
 * tarball of a later change to the sources: `reinstallPackage` then puts that tarball's files in place of
 * the package, as npm would, and points the lock files at it.
 */
export async function installExample(
  exampleDir: string,
  tarball: string,
  { timeout = INSTALL_TIMEOUT }: { timeout?: number } = {},
): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), `sim-example-${basename(exampleDir)}-`));
  cpSync(exampleDir, project, {
    recursive: true,
    // A lock file would pin the session-agent-sim of whoever last installed it here, not this tarball.
    filter: (source) => !['node_modules', 'package-lock.json'].includes(basename(source)),
  });
  const manifestPath = join(project, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Record<string, string>>;
  const section = ['dependencies', 'devDependencies'].find((name) => manifest[name]?.['session-agent-sim']);
  if (!section) throw new Error(`${manifestPath} does not depend on session-agent-sim`);
  (manifest[section] as Record<string, string>)['session-agent-sim'] = `file:${tarball}`;
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(manifestPath, text);
  const packageJson = packageManifest(tarball);
  const kept = join(
    tmpdir(),
    `${PREFIX}install-${createHash('sha256')
      .update(`${process.versions.node.split('.')[0]}\0${text.replace(tarball, '')}\0${packageJson}`)
      .digest('hex')
      .slice(0, 16)}`,
  );
  const origin = copyInstall(kept, project);
  if (origin && reinstallPackage(project, origin, tarball, packageJson)) {
    markUsed(kept);
    return project;
  }
  for (const name of INSTALLED) rmSync(join(project, name), { recursive: true, force: true });
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: project,
    timeout,
  });
  try {
    ensureSuccess(install, `npm install in ${project}`);
  } catch (error) {
    rmSync(project, { recursive: true, force: true });
    throw error;
  }
  keepInstall(project, kept, tarball);
  return project;
}

/** The package.json inside a tarball, as npm reads it when it installs one. */
function packageManifest(tarball: string): string {
  return execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8', timeout: 20_000 });
}

/** Beside a kept install: the tarball it was installed from, and that tarball's integrity in the lock files. */
const ORIGIN = 'origin.json';
interface Origin {
  tarball: string;
  integrity: string;
}

/**
 * After a kept install is copied: the package's files from `tarball` (whose package.json is `packageJson`) in
 * place of those it was installed with, its bin files executable, and the lock files naming `tarball` and its
 * integrity, as `npm install` leaves a project whose other dependencies did not change.
 */
function reinstallPackage(project: string, origin: Origin, tarball: string, packageJson: string): boolean {
  if (origin.tarball === tarball) return true;
  const locks = ['package-lock.json', 'node_modules/.package-lock.json'].map((lock) => join(project, lock));
  const texts = locks.map((lock) => readFileSync(lock, 'utf8'));
  // The lock names the tarball by its path (absolute in the root's entry, relative to the project in the
  // package's) and its folder names the sources' hash: the folder's name alone tells the two tarballs apart.
  const from = basename(dirname(origin.tarball));
  const to = basename(dirname(tarball));
  // A lock npm wrote some other way: let npm install instead.
  if (!texts.every((text) => text.includes(from) && text.includes(origin.integrity))) return false;
  const installed = join(project, 'node_modules', 'session-agent-sim');
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed);
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { timeout: 60_000 });
  const bin = (JSON.parse(packageJson) as { bin?: Record<string, string> }).bin ?? {};
  for (const file of Object.values(bin)) chmodSync(join(installed, file), 0o755);
  const { integrity } = packResult(tarball);
  locks.forEach((lock, i) =>
    writeFileSync(lock, (texts[i] as string).replaceAll(from, to).replaceAll(origin.integrity, integrity)),
  );
  return true;
}

const INSTALLED = ['node_modules', 'package-lock.json'];

/** node_modules/ and the lock file, from one folder to another; .bin's relative links copied as they are. */
function copyInstalled(from: string, to: string): void {
  for (const name of INSTALLED) cpSync(join(from, name), join(to, name), { recursive: true, verbatimSymlinks: true });
}

/**
 * Copies a kept install into `project` and says where it came from; undefined when there is none (or it went
 * while being copied).
 */
function copyInstall(kept: string, project: string): Origin | undefined {
  try {
    const origin = JSON.parse(readFileSync(join(kept, ORIGIN), 'utf8')) as Origin;
    copyInstalled(kept, project);
    return origin;
  } catch {
    for (const name of INSTALLED) rmSync(join(project, name), { recursive: true, force: true });
    return undefined;
  }
}

/** Keeps a fresh install: copied, then renamed into place whole, unless another got there first. */
function keepInstall(project: string, kept: string, tarball: string): void {
  const work = `${kept}.${process.pid}.${Date.now()}`;
  try {
    mkdirSync(work, { recursive: true });
    copyInstalled(project, work);
    const origin: Origin = { tarball, integrity: packResult(tarball).integrity };
    writeFileSync(join(work, ORIGIN), JSON.stringify(origin));
    renameSync(work, kept);
  } catch {
    // kept by another process meanwhile, or no room: the next install runs npm again
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
