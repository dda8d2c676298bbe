// get_crawler_access read for the crawler list (src/reports/crawlers.js): per crawler name its
// robots.txt access and disallowed requests, per vendor the visits back from its AI assistant.
// Pure; no imports, so the unit tests load it.

export const accessLabels = { allowed: 'Allowed', partial: 'Partly allowed', disallowed: 'Blocked' };

/**
 * get_crawler_access → per crawler name its robots.txt cells, and per vendor its visits back:
 * { robots(name) → { label, title, disallowed } | null, visits(vendor) → { assistant, visits } | null }.
 */
export function crawlerAccess(access) {
  const crawlers = new Map((access?.crawlers ?? []).map((row) => [row.name.toLowerCase(), row]));
  const vendors = new Map((access?.vendors ?? []).map((row) => [row.vendor, row]));
  return {
    audited: Boolean(access?.site),
    robots(name) {
      const row = name ? crawlers.get(name.toLowerCase()) : undefined;
      if (!row) return null;
      return { label: accessLabels[row.access] ?? row.access, title: row.statement,
        disallowed: row.current?.disallowedRequests?.total ?? 0 };
    },
    visits(vendor) {
      const row = vendor ? vendors.get(vendor) : undefined;
      return row ? { assistant: row.assistant, visits: row.referralVisits } : null;
    },
  };
}

