import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Other work sharing the host: a child process that keeps one core busy (a tight loop) until it is stopped. The
 * benches' servers then get what a loaded host leaves them, as on a shared machine.
 */
export function startBurner(): { stop(): void; child: ChildProcess } {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return {
    child,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
