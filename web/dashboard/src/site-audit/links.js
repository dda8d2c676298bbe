// Links between the site-audit page's sections. The site, the crawl and the period go with every
// section; the rest (rule, state, page, cursor…) belongs to the section that set it, so a link
// within the same section keeps all of it and a link to another section drops it.
import { seg } from '../api.js';

const keptAcrossTabs = ['site', 'crawl', 'period', 'from', 'to', 'compare', 'compareFrom', 'compareTo'];

/**
 * The URL of a section ('sites' is the default and leaves no tab parameter). extra sets (or, with
 * null, removes) parameters; fresh: keep only the site, crawl and period even within a section
 * (the section links of the navigation).
 */
export function tabHref(org, project, query, tab, extra = {}, { fresh = false } = {}) {
  const params = new URLSearchParams();
  const current = query.tab || 'sites';
  const kept = !fresh && (tab || 'sites') === current ? Object.keys(query).filter((key) => key !== 'tab') : keptAcrossTabs;
  for (const key of kept) if (query[key] && !(key in extra)) params.set(key, query[key]);
  if (tab && tab !== 'sites') params.set('tab', tab);
  for (const [key, value] of Object.entries(extra)) if (value !== null && value !== undefined && value !== '') params.set(key, value);
  const search = params.toString();
  return `/${seg(org.slug)}/${seg(project.id)}/site-audit${search ? `?${search}` : ''}`;
}
