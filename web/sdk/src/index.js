// The ES module for bundlers: createSightline(config) starts tracking the page it runs in.
import { Sightline, autoTrack, browserEnv } from './sightline.js';

export {
  Sightline, SightlineError, AuthenticationError, ValidationError, TimeoutError, ApiError,
  NetworkError,
} from './sightline.js';

export function createSightline(config, { automatic = true } = {}) {
  const sdk = new Sightline(config, browserEnv(window));
  if (automatic) autoTrack(sdk);
  return sdk;
}
