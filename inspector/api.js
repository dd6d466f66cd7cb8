// The control plane as this page reaches it. The page lives at <root>/__sim/, where <root> is empty unless the
// simulator is mounted under a path or the page was opened under a /__partition/NAME/ prefix; every call
// goes to <root>/__sim/… and names its partition, so switching partitions never reloads the page.

export class ApiError extends Error {
  constructor(status, body) {
    const tagged = body && typeof body === 'object' ? body : {};
    super(typeof tagged.message === 'string' ? tagged.message : `The simulator answered ${status}`);
    this.status = status;
    this.tag = typeof tagged._tag === 'string' ? tagged._tag : undefined;
    this.hint = typeof tagged.hint === 'string' ? tagged.hint : undefined;
  }
}

/** Where the page was opened: the root in front of /__sim, and the partition a /__partition/NAME prefix named. */
export function locate(pathname) {
  const at = pathname.lastIndexOf('/__sim');
  let root = at >= 0 ? pathname.slice(0, at) : '';
  let partition;
  const prefix = /\/__partition\/([^/]+)$/.exec(root);
  if (prefix) {
    root = root.slice(0, prefix.index);
    partition = decodeURIComponent(prefix[1]);
  }
  return { root, partition };
}

export function createApi(root, initialPartition = 'default') {
  let partition = initialPartition;
  return {
    get partition() {
      return partition;
    },
    set partition(name) {
      partition = name;
    },
    /** JSON in and out; a refusal throws ApiError with the simulator's own words (its _tag and hint). */
    async call(method, path, body) {
      const headers = { 'x-sim-partition': partition };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${root}/__sim/${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let data;
      try {
        data = text ? JSON.parse(text) : undefined;
      } catch {
        data = undefined;
      }
      if (!res.ok) throw new ApiError(res.status, data);
      return data;
    },
    /** EventSource cannot send headers: the partition goes in the path. */
    liveUrl() {
      return partition === 'default'
        ? `${root}/__sim/live`
        : `${root}/__partition/${encodeURIComponent(partition)}/__sim/live`;
    },
  };
}
