// The script-tag build: reads window.SightlineConfig (set before this script loads), starts
// automatic tracking, and exposes the instance as window.sightline.
import { Sightline, autoTrack, browserEnv } from './sightline.js';

const sdk = new Sightline(window.SightlineConfig || {}, browserEnv(window));
window.sightline = sdk;
autoTrack(sdk);
