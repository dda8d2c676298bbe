// The report pages the router mounts (app.js imports this module lazily, as one chunk).
export { WebAnalyticsPage } from './web.js';
export { CrawlerAnalyticsPage } from './crawlers.js';
