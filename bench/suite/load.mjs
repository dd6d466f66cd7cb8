// One cell of the matrix: autocannon against one target for one workload, plus the checks around it
// (what a target answers, and that it is idle before the next cell starts).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

function autocannonRequests(workload) {
  if (!workload.rotate)
    return workload.requests.map(({ method, path, headers, body }) => ({ method, path, headers, body }));
  // Each connection walks the whole list in turn. autocannon builds each request's bytes once; a rotation
  // through setupRequest built them again for every request, about 35 µs of the load generator's CPU, which
  // capped every target of a rotating workload at the same rate.
  return workload.rotate.paths.map((path) => ({ method: 'GET', path }));
}

/** Runs autocannon; resolves to the numbers the report keeps. */
export async function runLoad({ port, workload, connections, duration }) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    timeout: workload.timeoutS ?? 10,
    requests: autocannonRequests(workload),
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    problems: result.errors + result.non2xx,
  };
}

/** The requests a target is checked on: the workload's own, or a few of a long rotation. */
export function sampleRequests(workload) {
  return workload.rotate ? workload.rotate.sample : workload.requests;
}

/** One answer, kept whole for comparing: status, media type and body bytes. */
export async function answerOf(port, request, timeoutMs = 30_000) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body };
  } catch (error) {
    return {
      status: 0,
      contentType: '',
      body: Buffer.alloc(0),
      error: error.cause?.code ?? error.name ?? String(error),
    };
  }
}

const mediaType = (value) => value.toLowerCase().replace(/\s/g, '');

export function sameAnswer(a, b) {
  return a.status === b.status && mediaType(a.contentType) === mediaType(b.contentType) && a.body.equals(b.body);
}

/** What differs between two answers, in a few words. */
export function difference(a, b) {
  if (a.status !== b.status) return `status ${a.status || a.error} vs ${b.status || b.error}`;
  if (mediaType(a.contentType) !== mediaType(b.contentType))
    return `content-type "${a.contentType}" vs "${b.contentType}"`;
  return `body ${a.body.length} B vs ${b.body.length} B`;
}

/** CPU time (user + system) a process has used so far, in clock ticks (1/100 s on Linux). */
export function cpuTicks(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until the target stops burning CPU. autocannon stops sending at the deadline, but a slow target
 * still works through the requests already queued, which would steal CPU from the next cell.
 */
export async function waitIdle(pid, maxMs = 30_000) {
  const started = performance.now();
  let previous = cpuTicks(pid);
  let quiet = 0;
  while (previous !== undefined && performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuTicks(pid);
    if (now === undefined) break;
    // At most one tick (10 ms) of CPU per 100 ms, twice in a row.
    quiet = now - previous <= 1 ? quiet + 1 : 0;
    previous = now;
    if (quiet >= 2) break;
  }
  return performance.now() - started;
}
