// /{org}/{project}/settings: the project (update_project: name, reporting timezone, own
// domains, bot detection, event storage, IP logging), its SDK keys and private API keys.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { html, Button, Field, SelectField, Switch, Section, PageHeader, Notice, ErrorNotice, useAction } from '../ui/index.js';
import { api } from '../api.js';
import { invalidate } from '../data.js';
import { useProject, useProjectScope } from '../context.js';
import { KeysSection } from './keys.js';

function timezones(current) {
  let zones = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  // Intl lists canonical names only; keep the project's own (e.g. "UTC") selectable too.
  if (!zones.includes('UTC')) zones = ['UTC', ...zones];
  if (current && !zones.includes(current)) zones = [current, ...zones];
  return zones;
}

export function ProjectSettingsPage() {
  const project = useProject();
  const scope = useProjectScope();
  const [form, setForm] = useState(() => pick(project));
  const [saved, setSaved] = useState(false);
  useEffect(() => { setForm(pick(project)); }, [project]);
  const zones = useMemo(() => timezones(project.reportingTimezone).map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })), [project.reportingTimezone]);
  const savedForm = pick(project);
  const changes = Object.fromEntries(Object.entries(form).filter(([key, value]) => value !== savedForm[key]));
  const dirty = Object.keys(changes).length > 0;
  const set = (key) => (value) => { setSaved(false); setForm({ ...form, [key]: value }); };

  const { run, busy, error } = useAction(async (event) => {
    event.preventDefault();
    if (changes.name !== undefined) changes.name = changes.name.trim();
    const { domains, ...settings } = changes;
    if (domains !== undefined) settings.domains = domainList(domains);
    await api.call('update_project', { ...scope, ...settings });
    // The switcher, the title and this form show the project from list_projects.
    await invalidate('list_projects');
    setSaved(true);
  });

  return html`<div class="settings">
    <${PageHeader} title="Project settings" />
    <${Section} title="Project">
      <form class="stack narrow" onSubmit=${run}>
        <${Field} label="Project name" required maxlength="200" value=${form.name} onInput=${(event) => set('name')(event.currentTarget.value)} />
        <${SelectField} label="Reporting timezone" hint="Days in reports start and end at midnight in this timezone." value=${form.reportingTimezone} options=${zones} onChange=${set('reportingTimezone')} />
        <${Field} label="Own domains, one per line" hint="The site's domains, such as example.com (subdomains included). Visits referred from them count as direct, not as referrers. The pages' own hosts always do.">
          ${({ id, describedBy }) => html`<textarea id=${id} aria-describedby=${describedBy} rows="3" spellcheck="false" value=${form.domains} onInput=${(event) => set('domains')(event.currentTarget.value)}></textarea>`}
        <//>
        <div>
          <${Switch} label="Bot detection" description="On: events from bots are kept, flagged and counted as bot events (never as billed human events). Off: bot traffic is dropped entirely." checked=${form.botDetection} onChange=${set('botDetection')} />
          <${Switch} label="Event storage" description="Off: events are accepted and discarded, so nothing new reaches reports or the live feed." checked=${form.eventStorage} onChange=${set('eventStorage')} />
          <${Switch} label="IP logging" description="On: the client IP is stored with each event. Off: it is used for location and bot checks, then dropped." checked=${form.ipLogging} onChange=${set('ipLogging')} />
        </div>
        <${ErrorNotice} error=${error} />
        ${saved && !dirty && html`<${Notice} kind="success">Project settings saved.<//>`}
        <div class="row">
          <${Button} kind="primary" type="submit" busy=${busy} disabled=${!dirty}>Save changes<//>
          ${dirty && html`<${Button} onClick=${() => setForm(pick(project))}>Discard changes<//>`}
        </div>
      </form>
    <//>
    <${KeysSection} kind="sdk" />
    <${KeysSection} kind="private" />
  </div>`;
}

function pick(project) {
  return {
    name: project.name,
    reportingTimezone: project.reportingTimezone,
    botDetection: project.botDetection,
    eventStorage: project.eventStorage,
    ipLogging: project.ipLogging,
    domains: (project.domains ?? []).join('\n'),
  };
}

/** The domains of the form's text: one per line (commas and spaces separate too), no blanks. */
export function domainList(text) {
  return text.split(/[\s,]+/).map((domain) => domain.trim()).filter(Boolean);
}
