// /{org}/{project}/setup: getting the first data in. Three ways, each with copyable code: the
// tracking script (web analytics; an SDK key), server-side forwarding and log drains (crawler
// analytics; a private API key). The page polls list_events (limit 1) and get_usage and turns
// "live" as soon as the project's first event arrives. The report pages show the same status
// and snippet (WaitingForData) until then.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Button, Section, PageHeader, Notice, ErrorNotice, CodeBlock, OneTimeSecret, useAction } from '../ui/index.js';
import { api, seg } from '../api.js';
import { navigate } from '../router.js';
import { useOrganization, useProject, useProjectScope } from '../context.js';
import { formatDate, formatNumber } from '../format.js';

const pollMs = 3000;

/** The setup snippets of a project, with its SDK key and this server's address filled in. */
export function snippets(sdkKey, origin) {
  return {
    script: `<script>
  window.SightlineConfig = { sdkKey: "${sdkKey}", baseUrl: "${origin}/api" };
</script>
<script async src="${origin}/api/sdk/v1/script.js"></script>`,
    module: `<script type="module">
  import { createSightline } from "${origin}/api/sdk/v1/sightline.esm.js";
  window.sightline = createSightline({ sdkKey: "${sdkKey}", baseUrl: "${origin}/api" });
</script>`,
  };
}

export function SetupPage() {
  const org = useOrganization();
  const project = useProject();
  const scope = useProjectScope();
  return html`<div class="setup">
    <${PageHeader} title="Set up ${project.name}" />
    <${LiveStatus} scope=${scope} onOpenReports=${() => navigate(`/${seg(org.slug)}/${seg(project.id)}/web`)} />
    <${TrackingScript} scope=${scope} />
    <${ServerSide} scope=${scope} />
  </div>`;
}

/**
 * A report page of a project that has no data yet: the status, which turns live by itself,
 * and the tracking snippet. `onLive` runs once the first event has arrived.
 */
export function WaitingForData({ scope, onLive }) {
  const org = useOrganization();
  return html`<div class="stack waiting-for-data">
    <${LiveStatus} scope=${scope} onLive=${onLive}
      onOpenReports=${() => navigate(`/${seg(org.slug)}/${seg(scope.projectId)}/setup`)} openLabel="All the ways to send data" />
    <${TrackingScript} scope=${scope} />
  </div>`;
}

/** Waits for the first event; announces it politely when it comes. */
function LiveStatus({ scope, onOpenReports, onLive, openLabel = 'Open web analytics' }) {
  const [state, setState] = useState({ live: false, event: null, total: 0, error: null });
  useEffect(() => {
    let stopped = false;
    let timer = 0;
    const check = async () => {
      try {
        const [events, usage] = await Promise.all([
          api.call('list_events', { ...scope, limit: 1 }),
          api.call('get_usage', scope),
        ]);
        const total = (usage.months ?? []).reduce((sum, month) => sum + month.humanEvents + month.botEvents, 0);
        const event = events.events?.[0] ?? null;
        if (stopped) return;
        const live = Boolean(event) || total > 0;
        setState({ live, event, total, error: null });
        if (live) onLive?.();
        else timer = setTimeout(check, pollMs);
      } catch (error) {
        if (stopped) return;
        setState((previous) => ({ ...previous, error }));
        timer = setTimeout(check, pollMs * 3);
      }
    };
    check();
    return () => { stopped = true; clearTimeout(timer); };
  }, [scope.orgSlug, scope.projectId]);

  return html`<section class=${`card live-status ${state.live ? 'is-live' : ''}`} aria-labelledby="live-status-title">
    <h2 id="live-status-title"><span class=${`status-dot ${state.live ? 'live' : ''}`} aria-hidden="true"></span>${state.live ? 'Live' : 'Waiting for the first event'}</h2>
    <div role="status">
      ${state.live
        ? html`<p>Sightline is receiving data${state.event ? html`: the latest event is <strong>${state.event.event}</strong> in <strong>${state.event.channel}</strong>, ${formatDate(state.event.receivedAt)}` : html` (${formatNumber(state.total)} events this month)`}.</p>
          <${Button} kind="primary" onClick=${onOpenReports}>Open web analytics<//>`
        : html`<p class="muted">Add one of the snippets below to your site. This page updates by itself when the first event arrives.</p>
          ${onLive && html`<${Button} onClick=${onOpenReports}>${openLabel}<//>`}`}
    </div>
    <${ErrorNotice} error=${state.error} />
  </section>`;
}

function TrackingScript({ scope }) {
  const [key, setKey] = useState(null);
  const [existing, setExisting] = useState(null);
  const [loadError, setLoadError] = useState(null);
  const created = useRef(false);
  const create = useAction(async () => {
    const sdkKey = await api.call('create_sdk_key', { ...scope, name: 'Tracking script' });
    setKey(sdkKey.key);
  });
  // A project without a usable SDK key gets one at once. SDK keys are public, so the list gives
  // them whole; only keys made by an earlier release are known by their prefix alone.
  useEffect(() => {
    api.call('list_sdk_keys', scope).then((body) => {
      const active = body.keys.filter((item) => !item.revokedAt);
      setExisting(active);
      if (active.length === 0 && !created.current) { created.current = true; create.run(); }
    }, setLoadError);
  }, [scope.orgSlug, scope.projectId]);

  const origin = location.origin;
  const whole = key ?? existing?.find((item) => item.key)?.key;
  const shownKey = whole ?? (existing?.[0] ? `${existing[0].displayPrefix}…` : 'pk_service_…');
  const code = snippets(shownKey, origin);
  return html`<${Section} title="Web analytics: the tracking script" description="Paste this into the <head> of every page. It records page views, visits, referrers, UTM parameters, outbound links and your own events; no cookies.">
    <${ErrorNotice} error=${loadError ?? create.error} />
    ${!whole && existing?.length > 0 && html`<${Notice} kind="info">This project's SDK key (${existing.map((item) => `${item.displayPrefix}…`).join(', ')}) was made by an earlier release, which kept only its prefix: use the key you saved, or create a new one for this snippet.<//>`}
    <${CodeBlock} code=${code.script} label="Tracking snippet" />
    ${!whole && existing?.length > 0 && html`<div><${Button} busy=${create.busy} onClick=${create.run}>Create a new SDK key for this snippet<//></div>`}
    ${key && html`<${Notice} kind="success">A new SDK key is in the snippet. SDK keys are public: they can only send events.<//>`}
    <h3>Or as an ES module</h3>
    <p class="small muted">For pages that load modules: the same tracking, and <code>sightline.track(…)</code> for your own events. See the SDK documentation for custom events and identified users.</p>
    <${CodeBlock} code=${code.module} label="Module snippet" />
  <//>`;
}

function ServerSide({ scope }) {
  const [privateKey, setPrivateKey] = useState(null);
  const create = useAction(async () => {
    const created = await api.call('create_private_api_key', { ...scope, name: 'Crawler analytics' });
    setPrivateKey(created.key);
  });
  const origin = location.origin;
  const keyText = privateKey ?? 'sk_service_…';
  const curl = `curl -X POST ${origin}/api/ingest/v1/server \\
  -H "Authorization: Bearer ${keyText}" \\
  -H "Content-Type: application/json" \\
  -d '{"events": [{
        "user_agent": "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)",
        "ip_address": "203.0.113.7",
        "method": "GET", "host": "www.example.com", "path": "/pricing",
        "referrer": ""
      }]}'`;
  const drains = [
    ['Vercel', `${origin}/api/ingest/v1/vercel`, 'Project → Settings → Log Drains: JSON or NDJSON, sources edge/static, custom header Authorization: Bearer <key>.'],
    ['Netlify', `${origin}/api/ingest/v1/netlify`, 'Site → Logs & metrics → Log Drains → General HTTP endpoint, traffic logs, header Authorization: Bearer <key>.'],
    ['Cloudflare Logpush', `${origin}/api/ingest/v1/cloudflare?header_Authorization=Bearer%20${encodeURIComponent(keyText)}`, 'HTTP requests dataset with an HTTP destination; include ClientIP, ClientRequestUserAgent, ClientRequestMethod, ClientRequestHost, ClientRequestURI, ClientRequestReferer, EdgeStartTimestamp.'],
    ['Fastly', `${origin}/api/ingest/v1/fastly`, 'HTTPS logging endpoint, JSON lines, custom header Authorization.'],
    ['CloudFront (Kinesis Firehose)', `${origin}/api/ingest/v1/cloudfront`, 'Real-time logs → Firehose HTTP endpoint; the key goes in the access key (X-Amz-Firehose-Access-Key).'],
  ];
  return html`<${Section} title="Crawler analytics: server-side and log drains" description="AI crawlers and other bots do not run JavaScript. Send Sightline your server's requests — from your application, or from your hosting platform's log drain — to see which bots came, verified or spoofed.">
    <h3>A private API key</h3>
    ${privateKey
      ? html`<${OneTimeSecret} label="New private API key" secret=${privateKey} />`
      : html`<p>Forwarding needs a private API key of this project (permission <code>bots.ingest</code>). Create one for this purpose so you can revoke it alone.</p>
        <div><${Button} busy=${create.busy} onClick=${create.run}>Create a private API key<//></div>`}
    <${ErrorNotice} error=${create.error} />
    <h3>From your server</h3>
    <p>Send each request (up to 500 per call) with its User-Agent and client IP; humans are skipped, bots stored with their attribution.</p>
    <${CodeBlock} code=${curl} label="Server-side example" />
    <h3>From your platform's log drain</h3>
    <div class="table-wrap" role="region" aria-label="Log drain endpoints" tabindex="0">
      <table>
        <caption class="visually-hidden">Log drain endpoints</caption>
        <thead><tr><th scope="col">Platform</th><th scope="col">Endpoint</th><th scope="col">Setup</th></tr></thead>
        <tbody>${drains.map(([name, url, how]) => html`<tr key=${name}><th scope="row">${name}</th><td><code class="break">${url}</code></td><td>${how}</td></tr>`)}</tbody>
      </table>
    </div>
    <p class="small muted">Details for each platform: docs/log-drains.md.</p>
  <//>`;
}
