// The router and the layout. Routes (the URL holds every view's state):
//   /login, /invite?token=…                       signed out
//   /account                                      the user's account
//   /cli[?code=XXXX-XXXX]                         approve or deny a command-line sign-in
//   /                                             → last used (or first) project's web analytics
//   /{org}/settings/members | /{org}/settings/audit-log
//   /{org}/{projectId}/{web|crawlers|ai-visibility|site-audit|live|assistant[/{id}]|setup|settings|usage}
// Pages read the user, organization and project from context.js and the location from
// router.js (useRoute); redirects are <Redirect> elements, never navigations while rendering.
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { html, Loading, ErrorNotice, Notice, Button, Field, useAction } from './ui/index.js';
import { api, seg } from './api.js';
import { invalidate, useOperation } from './data.js';
import { OrganizationContext, ProjectContext, UserContext, useOrganization, useProject, useProjects, useUser } from './context.js';
import { currentLocation, navigate, onLinkClick, Redirect, RouteProvider, useRoute } from './router.js';
import { currentUser, getAccessToken, hasSession, lastProject, onSessionChange, rememberProject, setCurrentUser, signOut } from './session.js';
import { storedTheme, setTheme } from './ui/theme.js';

const reservedFirstSegments = new Set(['api', 'assets', 'login', 'account', 'invite', 'cli', '.well-known']);

/** A page in its own chunk, loaded when first shown. */
function lazy(load, exportName) {
  let loaded = null;
  return function LazyPage(props) {
    const [component, setComponent] = useState(() => loaded);
    const [error, setError] = useState(null);
    useEffect(() => {
      if (component) return;
      load().then((module) => {
        loaded = module[exportName];
        setComponent(() => loaded);
      }, setError);
    }, []);
    if (error) return html`<${Notice} kind="error">This page could not be loaded (${error.message}). Reload to try again.<//>`;
    if (!component) return html`<${Loading} />`;
    const Page = component;
    return html`<${Page} ...${props} />`;
  };
}

const WebAnalyticsPage = lazy(() => import('./reports/web.js'), 'WebAnalyticsPage');
const CrawlerAnalyticsPage = lazy(() => import('./reports/crawlers.js'), 'CrawlerAnalyticsPage');
const AiVisibilityPage = lazy(() => import('./ai-visibility/index.js'), 'AiVisibilityPage');
const SiteAuditPage = lazy(() => import('./site-audit/index.js'), 'SiteAuditPage');
const LivePage = lazy(() => import('./live/index.js'), 'LivePage');
const AssistantPage = lazy(() => import('./assistant/index.js'), 'AssistantPage');
const SetupPage = lazy(() => import('./onboarding/index.js'), 'SetupPage');
const ProjectSettingsPage = lazy(() => import('./settings/project.js'), 'ProjectSettingsPage');
const UsagePage = lazy(() => import('./settings/usage.js'), 'UsagePage');
const MembersPage = lazy(() => import('./settings/members.js'), 'MembersPage');
const AuditLogPage = lazy(() => import('./settings/audit-log.js'), 'AuditLogPage');
const AccountPage = lazy(() => import('./account/index.js'), 'AccountPage');
const InvitePage = lazy(() => import('./auth/invite.js'), 'InvitePage');
const CliLoginPage = lazy(() => import('./cli/index.js'), 'CliLoginPage');
// Signed-in users, whose first view is a report, never load the sign-in page's code.
const LoginPage = lazy(() => import('./auth/login.js'), 'LoginPage');

const projectViews = {
  web: { label: 'Web analytics', page: WebAnalyticsPage },
  crawlers: { label: 'Crawlers', page: CrawlerAnalyticsPage },
  'ai-visibility': { label: 'AI visibility', page: AiVisibilityPage },
  'site-audit': { label: 'Site audit', page: SiteAuditPage },
  live: { label: 'Live', page: LivePage },
  assistant: { label: 'Assistant', page: AssistantPage },
  setup: { label: 'Setup', page: SetupPage },
  settings: { label: 'Settings', page: ProjectSettingsPage },
  usage: { label: 'Usage', page: UsagePage },
};

export function App() {
  return html`<${RouteProvider}><${Root} /><//>`;
}

function Root() {
  const loc = useRoute();
  const [user, setUser] = useState(currentUser);
  const [booting, setBooting] = useState(() => !currentUser() && hasSession());
  useEffect(() => onSessionChange(setUser), []);

  // A reload: trade the stored refresh token for an access token, then load the user.
  useEffect(() => {
    if (!booting) return;
    (async () => {
      try {
        if (await getAccessToken()) setCurrentUser(await api.call('get_current_user'));
      } catch { /* signed out below */ } finally {
        setBooting(false);
      }
    })();
  }, []);

  const segments = loc.path.split('/').filter(Boolean).map(decodeURIComponent);
  const isPublic = segments[0] === 'login' || segments[0] === 'invite';

  useEffect(() => {
    if (!booting && !user && !isPublic) {
      const next = loc.path + loc.search;
      navigate(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`, { replace: true });
    }
  }, [booting, user, isPublic, loc.path]);

  if (booting) return html`<div class="center-page"><${Loading} label="Signing in…" /></div>`;
  if (segments[0] === 'login') return html`<${LoginPage} />`;
  if (segments[0] === 'invite') return html`<${InvitePage} />`;
  if (!user) return html`<div class="center-page"><${Loading} /></div>`;
  return html`<${UserContext.Provider} value=${user}><${SignedIn} segments=${segments} /><//>`;
}

function SignedIn({ segments }) {
  const user = useUser();
  const [first, second, third, ...rest] = segments;
  if (!first) return html`<${Home} />`;
  if (first === 'account' || (first === 'cli' && !second)) {
    // Pages of the user, not of an organization: the header keeps the last used organization.
    const recentOrg = user.organizations?.find((candidate) => candidate.slug === lastProject()?.org);
    const Page = first === 'account' ? AccountPage : CliLoginPage;
    return html`<${OrganizationContext.Provider} value=${recentOrg ? { org: recentOrg, projects: null } : null}>
      <${Layout} title=${first === 'account' ? 'Account' : 'Command-line sign-in'}><${Page} /><//>
    <//>`;
  }
  if (reservedFirstSegments.has(first)) return html`<${Layout}><${NotFound} /><//>`;
  const org = user.organizations?.find((candidate) => candidate.slug === first);
  if (!org) return html`<${Layout}><${NotFound} what="organization" /><//>`;
  if (second === 'settings') {
    const Page = third === 'audit-log' ? AuditLogPage : third === 'members' ? MembersPage : null;
    if (!third) return html`<${Redirect} to=${`/${seg(org.slug)}/settings/members`} />`;
    if (!Page) return html`<${OrganizationContext.Provider} value=${{ org, projects: null }}><${Layout}><${NotFound} /><//><//>`;
    return html`<${OrganizationScope} org=${org}><${OrganizationPage} section=${third} page=${Page} /><//>`;
  }
  return html`<${OrganizationScope} org=${org}><${ProjectScope} projectId=${second} view=${third} rest=${rest} /><//>`;
}

/** "/": the last used project, else the first organization's first project. */
function Home() {
  const user = useUser();
  const [error, setError] = useState(null);
  useEffect(() => {
    const remembered = lastProject();
    const orgs = user.organizations ?? [];
    if (remembered && orgs.some((org) => org.slug === remembered.org)) {
      navigate(`/${seg(remembered.org)}/${seg(remembered.projectId)}/web`, { replace: true });
      return;
    }
    const org = user.currentOrganization ?? orgs[0];
    if (!org) { setError('You are not a member of any organization yet. Ask an owner for an invitation.'); return; }
    navigate(`/${seg(org.slug)}`, { replace: true });
  }, []);
  return html`<${Layout}>${error ? html`<${Notice} kind="info">${error}<//>` : html`<${Loading} />`}<//>`;
}

/** Provides the organization and its projects (list_projects, kept: the switcher and the pages share it). */
function OrganizationScope({ org, children }) {
  const projects = useOperation('list_projects', { orgSlug: org.slug }, { keep: true });
  const value = { org, projects: projects.data?.projects ?? null, error: projects.error };
  return html`<${OrganizationContext.Provider} value=${value}>${children}<//>`;
}

function OrganizationPage({ section, page: Page }) {
  const { error } = useContext(OrganizationContext);
  return html`<${Layout} section=${section}>${error ? html`<${ErrorNotice} error=${error} />` : html`<${Page} />`}<//>`;
}

function ProjectScope({ projectId, view, rest }) {
  const { org, projects, error } = useContext(OrganizationContext);
  const { search } = useRoute();
  if (error) return html`<${Layout}><${ErrorNotice} error=${error} /><//>`;
  if (!projects) return html`<${Layout}><${Loading} /><//>`;
  if (!projectId) {
    if (projects.length === 0) {
      return html`<${Layout}><${CreateFirstProject} org=${org} onCreated=${async (project) => { await invalidate('list_projects'); navigate(`/${seg(org.slug)}/${seg(project.id)}/setup`); }} /><//>`;
    }
    const remembered = lastProject();
    const target = projects.find((project) => remembered?.org === org.slug && project.id === remembered.projectId) ?? projects[0];
    return html`<${Redirect} to=${`/${seg(org.slug)}/${seg(target.id)}/web`} />`;
  }
  const project = projects.find((candidate) => candidate.id === projectId);
  if (!project) return html`<${Layout}><${NotFound} what="project" /><//>`;
  if (!view) return html`<${Redirect} to=${`/${seg(org.slug)}/${seg(project.id)}/web${search}`} />`;
  const entry = projectViews[view];
  return html`<${ProjectContext.Provider} value=${project}>${!entry || (rest.length > 0 && view !== 'assistant') || rest.length > 1
    ? html`<${Layout}><${NotFound} /><//>`
    : html`<${ProjectPage} view=${view} page=${entry.page} conversationId=${view === 'assistant' ? rest[0] : undefined} />`}<//>`;
}

/** A project's page; remembers the project for "/" once shown. */
function ProjectPage({ view, page: Page, conversationId }) {
  const org = useOrganization();
  const project = useProject();
  useEffect(() => { rememberProject(org.slug, project.id); }, [org.slug, project.id]);
  return html`<${Layout} section=${view}><${Page} key=${project.id} conversationId=${conversationId} /><//>`;
}

function CreateFirstProject({ org, onCreated }) {
  const [name, setName] = useState('');
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    const project = await api.call('create_project', { orgSlug: org.slug, name: name.trim() });
    await onCreated(project);
  });
  return html`<div class="narrow">
    <h1 tabindex="-1" data-page-title>Create your first project</h1>
    <p class="muted">A project is one website or app whose traffic Sightline measures.</p>
    <form class="stack" onSubmit=${run}>
      <${Field} label="Project name" required value=${name} onInput=${(event) => setName(event.currentTarget.value)} />
      <${ErrorNotice} error=${error} />
      <${Button} kind="primary" type="submit" busy=${busy}>Create project<//>
    </form>
  </div>`;
}

function NotFound({ what = 'page' }) {
  return html`<div class="narrow"><h1 tabindex="-1" data-page-title>Not found</h1>
    <p>This ${what} does not exist, or you do not have access to it.</p><p><a href="/">Go to your dashboard</a></p></div>`;
}

/** The frame around every signed-in page: header with switcher and menus, navigation, main. */
function Layout({ section, title, children }) {
  const user = useUser();
  const org = useOrganization();
  const project = useProject();
  const projects = useProjects();
  const loc = useRoute();
  const mainRef = useRef(null);
  const [menuOpen, setMenuOpen] = useState(false);
  // Move focus to the new page's content after a navigation (not after a query change), so
  // keyboard and screen-reader users start at the top of what changed.
  const path = loc.path;
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) { firstRender.current = false; return; }
    const heading = mainRef.current?.querySelector('h1');
    (heading ?? mainRef.current)?.focus({ preventScroll: true });
    setMenuOpen(false);
  }, [path]);
  useEffect(() => {
    document.title = [title ?? (project && projectViews[section]?.label) ?? (section === 'members' ? 'Members' : section === 'audit-log' ? 'Audit log' : null), project?.name ?? org?.name, 'Sightline'].filter(Boolean).join(' · ');
  }, [title, project?.name, org?.name, section]);

  return html`<div class="layout" onClick=${onLinkClick}>
    <a class="skip-link" href="#main">Skip to content</a>
    <header class=${`topbar ${menuOpen ? 'menu-open' : ''}`}>
      <a class="brand" href="/" aria-label="Sightline home"><span class="brand-mark" aria-hidden="true"></span><span class="brand-name">Sightline</span></a>
      <${Switcher} section=${section} />
      <button type="button" class="btn btn-ghost menu-toggle" aria-expanded=${menuOpen} aria-controls="site-nav" onClick=${() => setMenuOpen(!menuOpen)}>Menu</button>
      <${UserMenu} />
    </header>
    <div class="body">
      <nav id="site-nav" class=${`sidenav ${menuOpen ? 'open' : ''}`} aria-label="Main">
        ${project && html`<ul>
          ${Object.entries(projectViews).map(([key, item]) => html`<li><a href=${`/${seg(org.slug)}/${seg(project.id)}/${key}${reportViews.has(key) ? periodSearch(loc.query) : ''}`} aria-current=${section === key ? 'page' : undefined}>${item.label}</a></li>`)}
        </ul>`}
        ${org && html`<p class="nav-heading" id="nav-org">${org.name}</p><ul aria-labelledby="nav-org">
          <li><a href=${`/${seg(org.slug)}/settings/members`} aria-current=${section === 'members' ? 'page' : undefined}>Members</a></li>
          <li><a href=${`/${seg(org.slug)}/settings/audit-log`} aria-current=${section === 'audit-log' ? 'page' : undefined}>Audit log</a></li>
        </ul>`}
        <ul><li><a href="/account" aria-current=${loc.path === '/account' ? 'page' : undefined}>Account</a></li></ul>
      </nav>
      <main id="main" ref=${mainRef} tabindex="-1">${children}</main>
    </div>
  </div>`;
}

// Keeps the period when moving between the report pages.
const reportViews = new Set(['web', 'crawlers', 'ai-visibility', 'site-audit']);
function periodSearch(query) {
  const keep = ['period', 'from', 'to', 'compare', 'compareFrom', 'compareTo'];
  const params = new URLSearchParams();
  for (const key of keep) if (query[key]) params.set(key, query[key]);
  const search = params.toString();
  return search ? `?${search}` : '';
}

function Switcher({ section }) {
  const user = useUser();
  const org = useOrganization();
  const project = useProject();
  const projects = useProjects();
  const orgs = user.organizations ?? [];
  const switchOrg = (slug) => navigate(`/${seg(slug)}`);
  const switchProject = (id) => {
    const view = projectViews[section] ? section : 'web';
    const query = currentLocation().query;
    navigate(`/${seg(org.slug)}/${seg(id)}/${view}${reportViews.has(view) ? periodSearch(query) : ''}`);
  };
  return html`<div class="switcher">
    ${orgs.length > 0 && html`<label class="visually-hidden" for="switch-org">Organization</label>
      <select id="switch-org" value=${org?.slug ?? ''} onChange=${(event) => switchOrg(event.currentTarget.value)}>
        ${!org && html`<option value="" disabled selected>Organization…</option>`}
        ${orgs.map((item) => html`<option value=${item.slug} selected=${item.slug === org?.slug}>${item.name}</option>`)}
      </select>`}
    ${org && projects && projects.length > 0 && html`<label class="visually-hidden" for="switch-project">Project</label>
      <select id="switch-project" value=${project?.id ?? ''} onChange=${(event) => switchProject(event.currentTarget.value)}>
        ${!project && html`<option value="" disabled selected>Project…</option>`}
        ${projects.map((item) => html`<option value=${item.id} selected=${item.id === project?.id}>${item.name}</option>`)}
      </select>`}
  </div>`;
}

function UserMenu() {
  const user = useUser();
  const [theme, setThemeState] = useState(storedTheme);
  const cycle = () => {
    const next = theme === 'system' ? 'dark' : theme === 'dark' ? 'light' : 'system';
    setTheme(next);
    setThemeState(next);
  };
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  return html`<div class="user-menu">
    <button type="button" class="btn btn-ghost" onClick=${cycle}>${theme === 'dark' ? 'Dark' : theme === 'light' ? 'Light' : 'Auto'} theme<span class="visually-hidden">: change theme</span></button>
    <a class="user-name" href="/account" title=${user.email}>${name}</a>
    <${Button} kind="ghost" onClick=${async () => { await signOut(); navigate('/login', { replace: true }); }}>Sign out<//>
  </div>`;
}
