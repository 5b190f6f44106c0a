// The data directory holds visitors' answers, uploads, mail and secrets: what Folio creates there
// is readable by its own user only, whatever the process umask (a mode only ever loses bits to the umask, so
// these never come out wider).

/** Directories Folio creates: the data directory, blob folders, outbox-mail, tmp. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files Folio creates: the SQLite database (its -wal and -shm take its mode), blobs, .eml files, demo tokens. */
export const PRIVATE_FILE_MODE = 0o600;
