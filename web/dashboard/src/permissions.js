// The signed-in user's permissions in an organization (get_current_user_in_organization), read
// once per organization and shared by the pages that hide what the user may not do. A failed
// read is forgotten, so the next page asks again.
import { api, seg } from './api.js';

const permissionLists = new Map();

export function loadPermissions(orgSlug) {
  if (!permissionLists.has(orgSlug)) {
    const promise = api.get(`/${seg(orgSlug)}/users/me`).then((body) => body.permissions ?? []);
    promise.catch(() => permissionLists.delete(orgSlug));
    permissionLists.set(orgSlug, promise);
  }
  return permissionLists.get(orgSlug);
}
