// The script-tag build: reads window.SightlineConfig (set before this script loads), starts
// automatic tracking, and exposes the instance as window.sightline. Without a baseUrl, events
// go where the script came from (its URL up to /sdk/v1/), a first-party proxy prefix included.
import { Sightline, autoTrack, browserEnv } from './sightline.js';

const config = { ...window.SightlineConfig };
const src = document.currentScript && document.currentScript.src;
if (config.baseUrl === undefined && src) config.baseUrl = src.replace(/\/sdk\/v1\/[^/]*$/, '');
const sdk = new Sightline(config, browserEnv(window));
window.sightline = sdk;
autoTrack(sdk);
