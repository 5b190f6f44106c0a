/** A server the run uses: one it was given or found (stop does nothing), or one it started. */
export interface EngineForTests {
  url: string;
  /** For the `engines:` line: version and address, e.g. `embedded 18.4 at 127.0.0.1:54321`. */
  label: string;
  stop(): Promise<void>;
}

/** A failure the global setup reports as its one line of output: what to install or set. */
export class SetupError extends Error {
  override name = 'SetupError';
}
