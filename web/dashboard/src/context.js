// Who and where: the signed-in user, the organization and the project a page is in, provided
// once by the router (app.js) and read by any component below it, so pages do not pass them on.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { useOperation } from './data.js';

export const UserContext = createContext(null);
/** { org, projects, reloadProjects }: projects is null until the list is read. */
export const OrganizationContext = createContext(null);
export const ProjectContext = createContext(null);

export const useUser = () => useContext(UserContext);
export const useOrganization = () => useContext(OrganizationContext)?.org ?? null;
export const useProjects = () => useContext(OrganizationContext)?.projects ?? null;
export const useProject = () => useContext(ProjectContext);

/** The path parameters of a project's operations: { orgSlug, projectId }. */
export function useProjectScope() {
  const org = useOrganization();
  const project = useProject();
  return { orgSlug: org.slug, projectId: project.id };
}

/**
 * The signed-in user's permissions in the current organization (the permissions of
 * get_current_user_in_organization): read the first time a page asks, then kept for the session,
 * so pages that never hide anything cost no request. [] until read, and when it fails.
 */
export function usePermissions() {
  const org = useOrganization();
  const answer = useOperation('get_current_user_in_organization', { orgSlug: org?.slug }, { keep: true, skip: !org });
  return answer.data?.permissions ?? [];
}
