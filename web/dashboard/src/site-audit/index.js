// /{org}/{projectId}/site-audit: ServiceAuditBot's audit of the project's own websites. One lazily
// loaded chunk (app.js imports it on demand) with five sections, chosen by ?tab=: the sites and
// their ownership proofs, the crawls (started here, followed live), the issues of a crawl by
// severity, its pages (and one page's detail, page=<url>), and robots.txt set against the crawler
// traffic the project observed. The URL holds the whole state (tab, site, crawl, rule, state,
// page, the period), so a view can be shared and reloaded. REST operations only (api.js).
import { html } from '../ui/html.js';
import { Loading, PageHeader, useTitle } from '../ui/index.js';
import { useOperation } from '../data.js';
import { useRoute } from '../router.js';
import { useOrganization, usePermissions, useProject, useProjectScope } from '../context.js';
import { RequestError } from '../reports/sections.js';
import { SitesTab } from './sites.js';
import { CrawlsTab } from './crawls.js';
import { IssuesTab } from './issues.js';
import { PagesTab } from './pages.js';
import { PageDetail } from './page-detail.js';
import { RobotsTrafficTab } from './robots-traffic.js';
import { tabHref } from './links.js';

export const tabs = [
  { value: 'sites', label: 'Sites' },
  { value: 'crawls', label: 'Crawls' },
  { value: 'issues', label: 'Issues' },
  { value: 'pages', label: 'Pages' },
  { value: 'robots', label: 'Robots vs traffic' },
];

export function SiteAuditPage() {
  const org = useOrganization();
  const project = useProject();
  const scope = useProjectScope();
  const { query } = useRoute();
  useTitle(`Site audit · ${project.name}`);
  const tab = tabs.some((item) => item.value === query.tab) ? query.tab : 'sites';
  const canManage = usePermissions().includes('siteaudit.manage');
  const sites = useOperation('list_audit_sites', scope, { select: (body) => body.sites ?? [] });
  const siteList = sites.data ?? [];
  // The site a section is about: ?site=, else the first proven one, else the first.
  const site = siteList.find((item) => item.id === query.site) ?? siteList.find((item) => item.verified) ?? siteList[0] ?? null;

  const link = (target, extra) => tabHref(org, project, query, target, extra);
  const props = { project, scope, sites: siteList, site, reloadSites: sites.reload, setSites: sites.setData, canManage, link };
  const ready = sites.data !== undefined;
  const showPage = Boolean(query.page) && (tab === 'issues' || tab === 'pages');

  return html`<div class="report site-audit">
    <${PageHeader} title="Site audit" />
    <p class="muted page-intro">ServiceAuditBot, Sightline's own signed crawler, reads the websites you prove are yours and checks
      what search engines and AI crawlers will find: status codes, links, canonicals, titles, sitemaps, robots.txt and llms.txt.</p>
    <nav class="tabs page-tabs" aria-label="Site audit sections">
      ${tabs.map((item) => html`<a href=${tabHref(org, project, query, item.value, {}, { fresh: true })} aria-current=${item.value === tab ? 'page' : undefined}>${item.label}</a>`)}
    </nav>
    <${RequestError} error=${sites.error} />
    ${!ready && !sites.error && html`<${Loading} />`}
    ${ready && tab === 'sites' && html`<${SitesTab} ...${props} />`}
    ${ready && tab === 'crawls' && html`<${CrawlsTab} ...${props} />`}
    ${ready && tab === 'issues' && !showPage && html`<${IssuesTab} ...${props} />`}
    ${ready && tab === 'pages' && !showPage && html`<${PagesTab} ...${props} />`}
    ${ready && showPage && html`<${PageDetail} ...${props} />`}
    ${ready && tab === 'robots' && html`<${RobotsTrafficTab} ...${props} />`}
  </div>`;
}
