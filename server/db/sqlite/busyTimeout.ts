/** How long a statement waits for another process's lock before it fails. */
export const BUSY_TIMEOUT_MS = 5000;
