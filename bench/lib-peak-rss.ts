import { readFileSync } from 'node:fs';

/**
 * The peak resident set size of this process in MB. Linux keeps `getrusage`'s maxRSS across `execve`, so a child
 * spawned by a bench that already holds a lot of memory would report the parent's peak; VmHWM of /proc/self/status
 * belongs to this process image alone. Elsewhere, maxRSS is the best there is.
 */
export function peakRssMb(): number {
  return peakRssMbOf('self') ?? Math.round(process.resourceUsage().maxRSS / 1024);
}

/** The peak resident set size in MB of process `pid` (VmHWM), or null where /proc does not say (not Linux). */
export function peakRssMbOf(pid: number | 'self'): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m?.[1]) return Math.round(Number(m[1]) / 1024);
  } catch {
    // not Linux, or the process is gone
  }
  return null;
}
