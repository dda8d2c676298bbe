// Links between the AI-visibility page's sections.
import { seg } from '../api.js';

const keptAcrossTabs = ['period', 'from', 'to', 'compare', 'compareFrom', 'compareTo'];

/** The URL of a section, keeping the period. */
export function tabHref(org, project, query, tab, extra = {}) {
  const params = new URLSearchParams();
  for (const key of keptAcrossTabs) if (query[key]) params.set(key, query[key]);
  if (tab !== 'overview') params.set('tab', tab);
  for (const [key, value] of Object.entries(extra)) if (value) params.set(key, value);
  const search = params.toString();
  return `/${seg(org.slug)}/${seg(project.id)}/ai-visibility${search ? `?${search}` : ''}`;
}
