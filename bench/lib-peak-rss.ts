import { readFileSync } from 'node:fs';

/**
 * The peak resident set size of this process in MB. Linux keeps `getrusage`'s maxRSS across `execve`, so a child
 * spawned by a bench that already holds a lot of memory would report the parent's peak; VmHWM of /proc/self/status
 * belongs to this process image alone. Elsewhere, maxRSS is the best there is.
 */
export function peakRssMb(): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m?.[1]) return Math.round(Number(m[1]) / 1024);
  } catch {
    // not Linux
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
