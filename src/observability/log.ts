/** The part of a pino logger that Folio's infrastructure code uses; Fastify's `app.log` satisfies it. */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** pino's level numbers; `silent` is above them all. */
const LEVELS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/**
 * A `Log` for commands without a Fastify app (`folio worker`): one JSON line per call, in pino's shape (`level`,
 * `time`, `msg` and the details), so the worker's lines read like the server's; below `minLevel` (LOG_LEVEL) nothing. Errors become
 * their message.
 */
export function lineLog(
  minLevel: string,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Log {
  const floor = LEVELS[minLevel] ?? 30;
  const line = (level: number, details: object, msg: string): void => {
    if (level < floor) return;
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(details))
      fields[key] = value instanceof Error ? { message: value.message, name: value.name } : value;
    write(`${JSON.stringify({ level, time: Date.now(), ...fields, msg })}\n`);
  };
  return {
    info: (details, msg) => line(30, details, msg),
    warn: (details, msg) => line(40, details, msg),
    error: (details, msg) => line(50, details, msg),
  };
}
