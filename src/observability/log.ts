/** The part of a pino logger that Folio's infrastructure code uses; Fastify's `app.log` satisfies it. */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
