import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) a bench server process and its children (the workers of `WORKERS=N`) have used so
 * far, from /proc; null elsewhere. The CPU a server spends per request does not depend on how fast the load
 * generator beside it on the same two cores can drive it, which requests per second do: on a slow host the client
 * alone could not drive bare Fastify serving a 35 KB list past 4,700-5,500 req/s.
 */
export function processTreeCpuMs(pid: number): number | null {
  const ticksMs = 10; // USER_HZ is 100 on Linux
  const statOf = (p: number): string[] | null => {
    try {
      // Fields after the command name, which is in parentheses and may hold spaces.
      const text = readFileSync(`/proc/${p}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    } catch {
      return null;
    }
  };
  const own = statOf(pid);
  if (own === null) return null;
  // From the state field: ppid is [1], utime [11], stime [12].
  const cpu = (f: string[]) => (Number(f[11]) + Number(f[12])) * ticksMs;
  let total = cpu(own);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statOf(Number(name));
    if (f !== null && Number(f[1]) === pid) total += cpu(f);
  }
  return total;
}

/**
 * Runs a load round against the server process `pid` and answers its result with the CPU the server (and its
 * children) spent per request, in µs (null where /proc is not there).
 */
export async function withCpuPerRequest<R extends { requests: { total: number } }>(
  pid: number | undefined,
  round: () => Promise<R>,
): Promise<R & { cpuUs: number | null }> {
  const cpu0 = processTreeCpuMs(pid ?? 0);
  const r = await round();
  const cpu1 = processTreeCpuMs(pid ?? 0);
  const cpuUs =
    cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1000) / Math.max(1, r.requests.total);
  return { ...r, cpuUs };
}
