// The router and the layout. Routes (the URL holds every view's state):
//   /login, /invite?token=…                       signed out
//   /account                                      the user's account
//   /cli[?code=XXXX-XXXX]                         approve or deny a command-line sign-in
//   /                                             → last used (or first) project's web analytics
//   /{org}/settings/members | /{org}/settings/audit-log
//   /{org}/{projectId}/{web|crawlers|ai-visibility|site-audit|live|assistant[/{id}]|setup|settings|usage}
// Every page gets { org, project, query, setQuery, navigate } (see docs/dashboard.md).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Loading, ErrorNotice, Notice, Button, Field, useAction } from './ui/index.js';
import { api, seg } from './api.js';
import { currentLocation, navigate, onLinkClick, setQuery, useLocation } from './router.js';
import { currentUser, getAccessToken, hasSession, lastProject, onSessionChange, rememberProject, setCurrentUser, signOut } from './session.js';
import { LoginPage } from './auth/login.js';
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

const WebAnalyticsPage = lazy(() => import('./reports/index.js'), 'WebAnalyticsPage');
const CrawlerAnalyticsPage = lazy(() => import('./reports/index.js'), 'CrawlerAnalyticsPage');
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
  const loc = useLocation();
  const [user, setUser] = useState(currentUser);
  const [booting, setBooting] = useState(() => !currentUser() && hasSession());
  useEffect(() => onSessionChange(setUser), []);

  // A reload: trade the stored refresh token for an access token, then load the user.
  useEffect(() => {
    if (!booting) return;
    (async () => {
      try {
        if (await getAccessToken()) setCurrentUser(await api.get('/users/me'));
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
  if (segments[0] === 'login') return html`<${LoginPage} query=${loc.query} />`;
  if (segments[0] === 'invite') return html`<${InvitePage} query=${loc.query} navigate=${navigate} />`;
  if (!user) return html`<div class="center-page"><${Loading} /></div>`;
  return html`<${SignedIn} user=${user} segments=${segments} loc=${loc} />`;
}

function SignedIn({ user, segments, loc }) {
  const [first, second, third, ...rest] = segments;
  if (!first) return html`<${Home} user=${user} />`;
  if (first === 'account') {
    const recentOrg = user.organizations?.find((candidate) => candidate.slug === lastProject()?.org);
    return html`<${Layout} user=${user} org=${recentOrg} title="Account"><${AccountPage} user=${user} query=${loc.query} setQuery=${setQuery} navigate=${navigate} /><//>`;
  }
  if (first === 'cli' && !second) {
    const recentOrg = user.organizations?.find((candidate) => candidate.slug === lastProject()?.org);
    return html`<${Layout} user=${user} org=${recentOrg} title="Command-line sign-in"><${CliLoginPage} user=${user} query=${loc.query} setQuery=${setQuery} navigate=${navigate} /><//>`;
  }
  if (reservedFirstSegments.has(first)) return html`<${Layout} user=${user}><${NotFound} /><//>`;
  const org = user.organizations?.find((candidate) => candidate.slug === first);
  if (!org) return html`<${Layout} user=${user}><${NotFound} what="organization" /><//>`;
  if (second === 'settings') {
    const Page = third === 'audit-log' ? AuditLogPage : third === 'members' ? MembersPage : null;
    if (!Page) {
      if (!third) { navigate(`/${seg(org.slug)}/settings/members`, { replace: true }); return null; }
      return html`<${Layout} user=${user} org=${org}><${NotFound} /><//>`;
    }
    return html`<${OrgScope} user=${user} org=${org} section=${third}>${(projects) => html`
      <${Page} org=${org} user=${user} projects=${projects} query=${loc.query} setQuery=${setQuery} navigate=${navigate} />`}<//>`;
  }
  return html`<${ProjectScope} user=${user} org=${org} projectId=${second} view=${third} rest=${rest} loc=${loc} />`;
}

/** "/": the last used project, else the first organization's first project. */
function Home({ user }) {
  const [error, setError] = useState(null);
  useEffect(() => {
    (async () => {
      const remembered = lastProject();
      const orgs = user.organizations ?? [];
      if (remembered && orgs.some((org) => org.slug === remembered.org)) {
        navigate(`/${seg(remembered.org)}/${seg(remembered.projectId)}/web`, { replace: true });
        return;
      }
      const org = user.currentOrganization ?? orgs[0];
      if (!org) { setError('You are not a member of any organization yet. Ask an owner for an invitation.'); return; }
      navigate(`/${seg(org.slug)}`, { replace: true });
    })().catch(setError);
  }, []);
  return html`<${Layout} user=${user}>${error ? html`<${Notice} kind="info">${error.message ?? error}<//>` : html`<${Loading} />`}<//>`;
}

// The projects of an organization, shared by the switcher and the pages; reloaded on demand.
const projectLists = new Map();
function loadProjects(orgSlug, { fresh = false } = {}) {
  if (fresh || !projectLists.has(orgSlug)) {
    const promise = api.get(`/${seg(orgSlug)}/projects`).then((body) => body.projects);
    promise.catch(() => projectLists.delete(orgSlug));
    projectLists.set(orgSlug, promise);
  }
  return projectLists.get(orgSlug);
}

function useProjects(orgSlug) {
  const [state, setState] = useState({ projects: null, error: null });
  const reload = (fresh) => loadProjects(orgSlug, { fresh }).then(
    (projects) => setState({ projects, error: null }),
    (error) => setState({ projects: null, error }));
  useEffect(() => { reload(false); }, [orgSlug]);
  return { ...state, reload: () => reload(true) };
}

function OrgScope({ user, org, section, children }) {
  const { projects, error } = useProjects(org.slug);
  return html`<${Layout} user=${user} org=${org} projects=${projects} section=${section}>
    ${error ? html`<${ErrorNotice} error=${error} />` : children(projects ?? [])}
  <//>`;
}

function ProjectScope({ user, org, projectId, view, rest, loc }) {
  const { projects, error, reload } = useProjects(org.slug);
  if (error) return html`<${Layout} user=${user} org=${org}><${ErrorNotice} error=${error} /><//>`;
  if (!projects) return html`<${Layout} user=${user} org=${org}><${Loading} /><//>`;
  if (!projectId) {
    if (projects.length === 0) {
      return html`<${Layout} user=${user} org=${org} projects=${projects}><${CreateFirstProject} org=${org} onCreated=${async (project) => { await reload(); navigate(`/${seg(org.slug)}/${seg(project.id)}/setup`); }} /><//>`;
    }
    const remembered = lastProject();
    const target = projects.find((project) => remembered?.org === org.slug && project.id === remembered.projectId) ?? projects[0];
    navigate(`/${seg(org.slug)}/${seg(target.id)}/web`, { replace: true });
    return null;
  }
  const project = projects.find((candidate) => candidate.id === projectId);
  if (!project) return html`<${Layout} user=${user} org=${org} projects=${projects}><${NotFound} what="project" /><//>`;
  if (!view) { navigate(`/${seg(org.slug)}/${seg(project.id)}/web${loc.search}`, { replace: true }); return null; }
  const entry = projectViews[view];
  if (!entry || (rest.length > 0 && view !== 'assistant') || rest.length > 1) {
    return html`<${Layout} user=${user} org=${org} project=${project} projects=${projects}><${NotFound} /><//>`;
  }
  rememberProject(org.slug, project.id);
  const Page = entry.page;
  const props = {
    org, project, query: loc.query, setQuery, navigate, user,
    conversationId: view === 'assistant' ? rest[0] : undefined,
    onProjectChange: reload,
  };
  return html`<${Layout} user=${user} org=${org} project=${project} projects=${projects} section=${view}>
    <${Page} key=${project.id} ...${props} />
  <//>`;
}

function CreateFirstProject({ org, onCreated }) {
  const [name, setName] = useState('');
  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    const project = await api.post(`/${seg(org.slug)}/projects`, { name: name.trim() });
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
function Layout({ user, org, project, projects, section, title, children }) {
  const loc = currentLocation();
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
    <header class="topbar">
      <a class="brand" href="/" aria-label="Sightline home"><span class="brand-mark" aria-hidden="true"></span><span class="brand-name">Sightline</span></a>
      <${Switcher} user=${user} org=${org} project=${project} projects=${projects} section=${section} />
      <button type="button" class="btn btn-ghost menu-toggle" aria-expanded=${menuOpen} aria-controls="site-nav" onClick=${() => setMenuOpen(!menuOpen)}>Menu</button>
      <${UserMenu} user=${user} />
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

function Switcher({ user, org, project, projects, section }) {
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

function UserMenu({ user }) {
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
