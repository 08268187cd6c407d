import type { Viewer } from '../auth/viewer.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services.ts';

/** One per request: who is calling, and the services every resolver delegates to. */
export interface Context {
  viewer: Viewer;
  services: Services;
  /** The request's id (x-request-id): in its log lines, its errors' extensions and its audit entries. */
  requestId: string;
  /** The request's logger: its lines carry the request id. */
  log: Logger;
}
