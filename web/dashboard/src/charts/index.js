// The chart components, for the report pages, the assistant's report results and the MCP App.
// None of them knows the router or api.js: they take figures and callbacks as props.
export { MetricCards } from './metric-cards.js';
export { Timeline, bucketLabel } from './timeline.js';
export { BarList } from './bar-list.js';
export { Change, changeTone, describeChange } from './change.js';

// The name the first plan used for the bar list.
export { BarList as BarTable } from './bar-list.js';

/**
 * The world map brings d3-geo, topojson-client and the atlas (about 100 KB): import it only
 * when a map is shown. Resolves to the module ({ WorldMap }).
 */
export const loadWorldMap = () => import('./world-map.js');
