// One vocabulary for the values the API names in snake case, so every page says "AI user fetch"
// and never a raw "ai user fetch". Pure; unit-tested in test/labels.test.js.

/** The crawler categories of the spec (`__actor_category`), and older names still stored. */
export const crawlerCategoryLabels = {
  ai_training: 'AI training', ai_search: 'AI search', ai_user_fetch: 'AI user fetch', ai_assistant: 'AI user fetch',
  search_engine: 'Search engine', social_preview: 'Social preview', social: 'Social preview', seo: 'SEO',
  monitoring: 'Monitoring', security_scanner: 'Security scanner', scanner: 'Security scanner', archiver: 'Archiver',
  feed_fetcher: 'Feed reader', feed: 'Feed reader', automation: 'Automation',
};

/** "ai_user_fetch" → "AI user fetch"; an unknown name as a sentence ("new_kind" → "New kind"). */
export function categoryLabel(category) {
  if (!category) return null;
  const known = crawlerCategoryLabels[category];
  if (known) return known;
  const words = category.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
