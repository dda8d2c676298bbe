// The Live view: who is on the site now (get_web_realtime, refreshed every 15 s: the visitors of
// the last 5 minutes, the last 30 minutes minute by minute, their pages and sources), the project's
// events as they arrive, newest first, and the notifications that events sent with
// `notify: true` raise, announced politely to screen readers and, when the user
// asked for it with a click, as desktop notifications. Pausing closes the stream; resuming
// catches up (the stream resumes after the last notification seen).
import { useState } from 'preact/hooks';
import { html } from '../ui/html.js';
import { Button, ErrorNotice, Loading, PageHeader, Section, useTitle } from '../ui/index.js';
import { formatDate, formatNumber } from '../format.js';
import { useRealtime } from '../realtime.js';
import { BarList } from '../charts/bar-list.js';
import { useLiveFeed } from './feed.js';
import { useOrganization, useProject } from '../context.js';

const connectionText = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  paused: 'Paused',
  failed: 'Disconnected',
};

/** Tags worth a glance in the list; the rest is one click away. */
const enrichmentShown = ['__path', '__country', '__browser', '__os', '__device', '__bot_name'];
const enrichmentLabels = {
  __path: 'path', __country: 'country', __browser: 'browser', __os: 'OS', __device: 'device', __bot_name: 'bot',
};
const compactTagCount = 4;

const desktopKey = 'sightline:live-desktop-notifications';
const desktopSupported = () => typeof window !== 'undefined' && 'Notification' in window;

export function LivePage() {
  const org = useOrganization();
  const project = useProject();
  useTitle(`Live · ${project.name}`);
  const [desktop, setDesktop] = useState(() => desktopSupported() && Notification.permission === 'granted'
    && localStorage.getItem(desktopKey) === 'on');
  const feed = useLiveFeed({
    orgSlug: org.slug,
    projectId: project.id,
    onNotification: (notification) => {
      if (!desktop || !desktopSupported() || Notification.permission !== 'granted') return;
      try {
        // eslint-disable-next-line no-new
        new Notification(`${notification.icon ? `${notification.icon} ` : ''}${notification.event}`, {
          body: notification.description ?? notification.channel, tag: notification.id,
        });
      } catch { /* some browsers allow notifications only from a service worker */ }
    },
  });

  const toggleDesktop = async () => {
    if (desktop) {
      localStorage.removeItem(desktopKey);
      setDesktop(false);
      return;
    }
    // Asked only here, after the user's click: never on load.
    const permission = await Notification.requestPermission();
    if (permission === 'granted') {
      localStorage.setItem(desktopKey, 'on');
      setDesktop(true);
    }
  };

  return html`<div class="live">
    <${PageHeader} title="Live">
      <span class=${`live-connection is-${feed.connection}`} role="status">
        <span class=${`status-dot ${feed.connection === 'live' ? 'live' : ''}`} aria-hidden="true"></span>${connectionText[feed.connection]}
      </span>
      <${Button} aria-pressed=${feed.paused ? 'true' : 'false'} onClick=${() => feed.setPaused(!feed.paused)}>
        ${feed.paused ? 'Resume' : 'Pause'}
      <//>
      ${desktopSupported() && Notification.permission !== 'denied' && html`
        <${Button} kind="ghost" aria-pressed=${desktop ? 'true' : 'false'} onClick=${toggleDesktop}>
          ${desktop ? 'Desktop notifications on' : 'Enable desktop notifications'}
        <//>`}
    <//>
    <${ErrorNotice} error=${feed.error} />
    <${RealtimeSection} projectId=${project.id} />
    <div class="live-grid">
      <${Section} title="Events" description="The newest first; new ones appear on top.">
        ${feed.loading ? html`<${Loading} label="Loading events…" />` : html`
          <${EventList} events=${feed.events} />
          ${feed.nextCursor && html`<div class="pager">
            <${Button} busy=${feed.loadingMore} onClick=${feed.loadMore}>Load more<//>
          </div>`}`}
      <//>
      <${Section} title="Notifications" id="live-notifications-title"
        description="Events sent with notify: true.">
        <div class="live-notifications" role="log" aria-live="polite" aria-labelledby="live-notifications-title">
          ${feed.notifications.map((notification) => html`<${NotificationItem} key=${notification.id} notification=${notification} />`)}
        </div>
        ${feed.notifications.length === 0 && html`<p class="muted">None since you opened this page.</p>`}
      <//>
    </div>
  </div>`;
}

const realtimeRefreshMs = 15_000;

/** The last 30 minutes: visitors now, a bar per minute, and the top pages and sources. */
function RealtimeSection({ projectId }) {
  const { data, error } = useRealtime(projectId, realtimeRefreshMs);
  const most = Math.max(1, ...(data?.minutes ?? []).map((minute) => minute.visitors));
  const values = (rows) => rows.map((row) => ({ key: row.value ?? '', name: row.value, value: row.visitors }));
  return html`<${Section} title="Last 30 minutes" description="Visitors with an event in the last 5 minutes count as on the site now. Refreshed every 15 seconds.">
    <${ErrorNotice} error=${error} />
    ${!data ? html`<${Loading} label="Loading the last 30 minutes…" />` : html`<div class="realtime">
      <p class="realtime-now"><strong data-realtime="visitorsNow">${formatNumber(data.visitorsNow)}</strong> ${data.visitorsNow === 1 ? 'visitor' : 'visitors'} now${' · '}${formatNumber(data.visitors)} visitors and ${formatNumber(data.pageviews)} pageviews in the last 30 minutes${data.complete ? '' : ' (the latest 50,000 events)'}</p>
      <figure class="realtime-minutes" aria-label="Visitors per minute, the last 30 minutes">
        ${data.minutes.map((minute) => html`<span class="realtime-bar" style=${{ height: `${(minute.visitors / most) * 100}%` }}
          title=${`${formatDate(minute.start, { hour: '2-digit', minute: '2-digit' })}: ${formatNumber(minute.visitors)} visitors, ${formatNumber(minute.pageviews)} pageviews`}></span>`)}
      </figure>
      <div class="report-grid">
        <${BarList} caption="Pages of the last 30 minutes" nameLabel="Page" valueLabel="Visitors" rows=${values(data.pages)} showComparison=${false} empty="No pageviews in the last 30 minutes." />
        <${BarList} caption="Sources of the last 30 minutes" nameLabel="Source" valueLabel="Visitors" rows=${values(data.sources)} showComparison=${false} empty="No visitors in the last 30 minutes." />
      </div>
    </div>`}
  <//>`;
}

function EventList({ events }) {
  if (!events.length) {
    return html`<p class="muted">No events yet. They appear here as soon as your site or app sends them.</p>`;
  }
  return html`<ol class="live-feed" aria-label="Events, newest first">
    ${events.map((event) => html`<${EventItem} key=${event.id} event=${event} />`)}
  </ol>`;
}

function EventItem({ event }) {
  const who = event.userId ? `User ${event.userId}` : event.anonymousId ? `Anonymous ${event.anonymousId.slice(0, 8)}` : null;
  return html`<li class=${`live-event ${event.notify ? 'is-notify' : ''}`}>
    <span class="live-icon" aria-hidden="true">${event.icon || '•'}</span>
    <div class="live-body">
      <div class="live-line">
        <strong class="live-name">${event.event}</strong>
        <span class="badge" title="Channel"><span class="visually-hidden">Channel </span>${event.channel}</span>
        ${event.notify && html`<span class="badge badge-success">notified</span>`}
        <time class="live-time muted" datetime=${event.timestamp}>${formatDate(event.timestamp, { dateStyle: 'medium', timeStyle: 'medium' })}</time>
      </div>
      ${event.description && html`<p class="live-description">${event.description}</p>`}
      <${Tags} tags=${event.tags} />
      ${who && html`<p class="live-who muted" title=${event.userId ?? event.anonymousId}>${who}</p>`}
    </div>
  </li>`;
}

/** The event's own tags first, then a few enrichment values; everything else folded away. */
function Tags({ tags = {} }) {
  const own = Object.entries(tags).filter(([key]) => !key.startsWith('__'));
  const enriched = enrichmentShown.filter((key) => tags[key] !== undefined && tags[key] !== 'unknown')
    .map((key) => [enrichmentLabels[key], tags[key]]);
  const all = [...own, ...enriched];
  if (!all.length) return null;
  const shown = all.slice(0, compactTagCount);
  const rest = all.slice(compactTagCount);
  const chip = ([key, value]) => html`<li class="live-tag"><span class="live-tag-key">${key}</span> ${String(value)}</li>`;
  return html`<div class="live-tags">
    <ul class="live-tag-list" aria-label="Tags">${shown.map(chip)}</ul>
    ${rest.length > 0 && html`<details class="live-more-tags">
      <summary>${rest.length} more</summary>
      <ul class="live-tag-list" aria-label="More tags">${rest.map(chip)}</ul>
    </details>`}
  </div>`;
}

function NotificationItem({ notification }) {
  return html`<p class="live-notification">
    <span aria-hidden="true">${notification.icon ? `${notification.icon} ` : ''}</span>
    <strong>${notification.event}</strong>
    <span class="muted"> in ${notification.channel}</span>
    ${notification.description && html`: ${notification.description}`}
    ${' '}<time class="muted" datetime=${notification.createdAt}>${formatDate(notification.createdAt, { timeStyle: 'medium' })}</time>
  </p>`;
}
