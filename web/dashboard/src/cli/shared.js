// What the command-line sign-in page (/cli) and the account's list of command-line sessions
// share: the permissions' labels, the place of an IP address, the user code as typed, and
// the choices the approval form starts with.

/**
 * "Read web and product analytics" for "analytics.view", from the catalog get_cli_login answers
 * with ([{name, description}]); an unknown name is its own label.
 */
export function permissionLabel(name, catalog = []) {
  const description = catalog.find((item) => item.name === name)?.description;
  return description ? description.replace(/\.$/, '') : name;
}

let regionNames;
/** "Berlin, Berlin, Germany" from {city, region, country} (country: ISO 3166-1 alpha-2). */
export function formatPlace(location) {
  if (!location) return '';
  let country = location.country ?? '';
  if (/^[A-Za-z]{2}$/.test(country)) {
    try {
      regionNames ??= new Intl.DisplayNames(undefined, { type: 'region' });
      country = regionNames.of(country.toUpperCase()) ?? country;
    } catch { /* keep the code */ }
  }
  const parts = [location.city, location.region, country].filter(Boolean);
  // A city-state's region often repeats its city ("Berlin, Berlin").
  return parts.filter((part, index) => index === 0 || part !== parts[index - 1]).join(', ');
}

/** "203.0.113.7 · Berlin, Germany", or whichever of the two is known. */
export function formatAddress(ip, location) {
  return [ip, formatPlace(location)].filter(Boolean).join(' · ');
}

/** The user code as the server takes it: no spaces, upper case (the dash may stay or go). */
export function normalizeUserCode(typed) {
  return String(typed ?? '').replace(/\s+/g, '').toUpperCase();
}

/**
 * The permissions ticked at first in an organization: what was requested and the role there
 * allows, or everything it allows when nothing was requested. In the role's order.
 */
export function defaultPermissions(requested, allowed) {
  if (!requested || requested.length === 0) return [...allowed];
  const wanted = new Set(requested);
  return allowed.filter((permission) => wanted.has(permission));
}

/** Requested permissions the role in this organization does not allow. */
export function unavailablePermissions(requested, allowed) {
  const offered = new Set(allowed);
  return (requested ?? []).filter((permission) => !offered.has(permission));
}

/**
 * The approval form's first choices for a looked-up login: the organization holding the
 * requested project, else the last used one (remembered: {org, projectId} or null), else the
 * first; its requested, remembered or first project; and defaultPermissions there.
 * orgSlug given: the choices after switching to that organization.
 */
export function initialChoices(request, remembered, orgSlug) {
  const orgs = request.organizations ?? [];
  const requestedProject = request.requestedProjectId ?? null;
  const holds = (org, projectId) => Boolean(projectId) && (org.projects ?? []).some((project) => project.id === projectId);
  const org = orgSlug !== undefined ? orgs.find((candidate) => candidate.slug === orgSlug)
    : orgs.find((candidate) => holds(candidate, requestedProject))
      ?? orgs.find((candidate) => candidate.slug === remembered?.org)
      ?? orgs[0];
  if (!org) return { org: '', projectId: '', permissions: [] };
  const projectId = holds(org, requestedProject) ? requestedProject
    : remembered?.org === org.slug && holds(org, remembered.projectId) ? remembered.projectId
      : org.projects?.[0]?.id ?? '';
  return { org: org.slug, projectId, permissions: defaultPermissions(request.requestedPermissions, org.permissions ?? []) };
}
