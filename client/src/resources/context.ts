import type { Transport } from '../http.js';

/** What every resource reads through: the transport, and the cv the client is pinned to (`client.at(cv)`). */
export interface ClientContext {
  transport: Transport;
  pinnedCv: number | undefined;
}
