import type { Viewer } from '../auth/viewer.ts';
import type { Services } from '../services.ts';

/** One per request: who is calling, and the services every resolver delegates to. */
export interface Context {
  viewer: Viewer;
  services: Services;
}
