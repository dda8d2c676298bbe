// A time series chart (uPlot) with the comparison period drawn dashed over the same x positions:
// bucket i of the previous window sits under bucket i of the selection, so "the same day last
// week" lines up. A bucket still in progress is drawn as a dotted piece labelled "incomplete",
// and buckets still to come are not drawn (periods.js), so today never looks like a collapse.
// Counts get whole-number ticks; the axes are sized to their labels. Colours come from the
// theme's CSS custom properties and are re-read when the theme changes. The canvas is hidden
// from screen readers; a visually hidden table gives them the same numbers.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from '../ui/html.js';
import { formatDate, formatNumber } from '../format.js';
import { bucketStates, splitAtNow } from './periods.js';

const palette = ['--chart-1', '--chart-3', '--chart-4', '--chart-5', '--chart-6', '--chart-2'];

function cssVar(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/**
 * A bucket's label. Buckets are local starts with their offset ("2026-10-25T02:00:00+01:00"):
 * reading the digits keeps the reporting timezone's wall clock whatever the browser's zone.
 */
export function bucketLabel(bucket, interval, { long = false } = {}) {
  if (!bucket) return '';
  const day = bucket.slice(0, 10);
  if (interval === 'hour') {
    const time = bucket.slice(11, 16);
    return long ? `${formatDate(day, { month: 'short', day: 'numeric' })} ${time}` : time;
  }
  if (interval === 'month') return formatDate(day, { month: 'short', year: 'numeric' });
  return formatDate(day, long ? { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' } : { month: 'short', day: 'numeric' });
}

/**
 * The tooltip beside the cursor: the bucket and every visible line's value there (the legend
 * under the chart says the same, further from the pointer). Built with textContent: vendor
 * names come from user agents.
 */
function showTip(u, { currentLines, labelOf, previousLabelOf, hidden }) {
  let tip = u.over.querySelector('.timeline-tip');
  if (!tip) {
    tip = document.createElement('div');
    tip.className = 'timeline-tip';
    u.over.appendChild(tip);
  }
  const { idx, left, top } = u.cursor;
  if (idx === null || idx === undefined || left < 0) { tip.hidden = true; return; }
  const rows = [];
  u.series.forEach((line, index) => {
    if (index === 0 || !line.show || hidden(index, idx)) return;
    const value = u.data[index][idx];
    if (value === null || value === undefined) return;
    rows.push([line.stroke(u, index), line.label, line.value(u, value, index, idx), index > currentLines]);
  });
  if (rows.length === 0) { tip.hidden = true; return; }
  const title = document.createElement('strong');
  title.textContent = labelOf(idx) || '';
  const heads = [title];
  const comparedDay = rows.some((row) => row[3]) ? previousLabelOf(idx) : '';
  if (comparedDay) {
    const compared = document.createElement('span');
    compared.className = 'timeline-tip-compared';
    compared.textContent = `compared with ${comparedDay}`;
    heads.push(compared);
  }
  const lines = rows.map(([colour, label, value, isPrevious]) => {
    const row = document.createElement('span');
    const swatch = document.createElement('i');
    // The comparison's lines are dashed in the chart: an outlined swatch here.
    if (isPrevious) { swatch.className = 'previous'; swatch.style.borderColor = colour; } else swatch.style.background = colour;
    row.append(swatch, `${label}: ${value}`);
    return row;
  });
  tip.replaceChildren(...heads, ...lines);
  tip.hidden = false;
  // Beside the pointer, flipped to its left near the right edge.
  const width = tip.offsetWidth;
  const x = left + 14 + width > u.over.clientWidth ? left - 14 - width : left + 14;
  tip.style.transform = `translate(${Math.max(0, x)}px, ${Math.max(0, top - tip.offsetHeight / 2)}px)`;
}

// Tick steps for counts: 1, 2, 5, 10, 20, 50, … (uPlot picks the smallest that fits).
const wholeSteps = Array.from({ length: 13 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();
const allWhole = (lines) => lines.every((line) => line.data.every((value) => value === null || value === undefined || Number.isInteger(value)));
// Pixels an axis label of this text takes (the chart's 12 px system font).
const labelWidth = (text) => Math.ceil(String(text).length * 7.2);

// Stacked areas take these in order (grey, --chart-2, is for the `muted` one).
const stackPalette = ['--chart-1', '--chart-3', '--chart-4', '--chart-5', '--chart-6', '--chart-7', '--chart-8', '--chart-9'];

/** The stacked series' running sums per bucket, top first (uPlot paints in order, so each lower area covers the upper ones' lower part); null for future buckets. */
function stackedData(series, states) {
  const sums = [];
  let running = states.map(() => 0);
  for (const line of series) {
    running = running.map((sum, index) => sum + (line.data[index] ?? 0));
    sums.push(running.map((sum, index) => (states[index] === 'future' ? null : sum)));
  }
  return sums.reverse();
}

/** uPlot's series for stackedData: filled, in the stack's colours, showing each own value. */
function stackedLines(series, states, format) {
  let next = 0;
  const colours = series.map((line) => cssVar(line.muted ? '--chart-2' : stackPalette[next++ % stackPalette.length], '#2d5bd7'));
  return series.map((line, index) => ({
    label: line.label, stroke: colours[index], fill: `${colours[index]}d0`, width: 1, points: { show: false },
    value: (_, __, ___, at) => (at === null || at === undefined || states[at] === 'future' ? '—' : format(line.data[at] ?? 0)),
  })).reverse();
}

/** Re-renders when the theme changes (the toggle sets data-theme; the system can switch too). */
function useThemeVersion() {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((value) => value + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', bump);
    return () => { observer.disconnect(); media.removeEventListener('change', bump); };
  }, []);
  return version;
}

/**
 * props:
 *  label      the chart's accessible name
 *  buckets    the selection's bucket starts; interval: hour|day|week|month
 *  series     [{ label, data }] the selection (one line each)
 *  previous   null, or { buckets, series: [{ label, data }] } drawn dashed (same order as series)
 *  format     formats a y value (default formatNumber)
 *  height     plot height in px (default 240)
 *  timeZone   the reporting timezone, which says which day is today (default the browser's)
 *  stacked    the series as stacked areas (each on top of the ones before it; one flagged
 *             `muted`, such as "Other", in grey), their values in the legend and tooltip; the
 *             bucket in progress is marked in the tooltip and the table, future ones not drawn
 */
export function Timeline({ label, buckets, series, previous = null, interval = 'day', format = formatNumber, height = 240, timeZone, stacked = false }) {
  const states = bucketStates(buckets, interval, { timeZone });
  const holder = useRef(null);
  const theme = useThemeVersion();
  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    const length = Math.max(buckets.length, ...(previous?.series ?? []).map((line) => line.data.length));
    const xs = Array.from({ length }, (_, index) => index);
    const pad = (data) => xs.map((index) => (index < data.length ? data[index] : null));
    const text = cssVar('--text', '#161a22');
    const muted = cssVar('--text-muted', '#505a6b');
    const grid = cssVar('--border', '#d5d9e1');
    const colour = (index) => cssVar(palette[index % palette.length], '#2d5bd7');
    const split = series.map((line) => splitAtNow(line.data, states));
    const lines = stacked ? stackedLines(series, states, format) : series.map((line, index) => ({
      label: line.label, stroke: colour(index), width: 2, points: { show: length <= 1 }, spanGaps: false,
      value: (_, value) => (value === null || value === undefined ? '—' : format(value)),
    }));
    // The bucket in progress: the same colour, dotted, named so in the legend and the tooltip.
    const partialLines = stacked ? [] : series.flatMap((line, index) => (split[index].hasPartial ? [{
      label: `${line.label} (incomplete)`, stroke: colour(index), width: 2, dash: [2, 4], points: { show: true, size: 5 },
      value: (_, value) => (value === null || value === undefined ? '—' : format(value)),
    }] : []));
    const previousLines = (previous?.series ?? []).map((line, index) => ({
      label: line.label, stroke: stacked ? muted : colour(index), width: 1.5, dash: [6, 4], alpha: 0.75, points: { show: length <= 1 },
      value: (_, value) => (value === null || value === undefined ? '—' : format(value)),
    }));
    const current = stacked ? stackedData(series, states).map(pad) : split.map((line) => pad(line.complete));
    const data = [xs, ...current,
      ...split.filter((line) => line.hasPartial && !stacked).map((line) => pad(line.partial)),
      ...(previous?.series ?? []).map((line) => pad(line.data))];
    const tickLabel = (index) => bucketLabel(buckets[index] ?? previous?.buckets?.[index], interval);
    const whole = allWhole([...series, ...(previous?.series ?? [])]);
    // The first and last x labels are centred on the plot's edges: room for half of each.
    const edge = Math.ceil(labelWidth(tickLabel(0)) / 2);
    const options = {
      width: Math.max(element.clientWidth, 200),
      height,
      padding: [8, Math.max(12, Math.ceil(labelWidth(tickLabel(length - 1)) / 2)), null, null],
      scales: { x: { time: false }, y: { range: (_, min, max) => [0, max > 0 ? (whole ? Math.max(1, Math.ceil(max * 1.1)) : max * 1.1) : 1] } },
      series: [
        { label: interval === 'hour' ? 'Hour' : 'Period', value: (_, index) => (index === null ? '—' : bucketLabel(buckets[index], interval, { long: true }) || '—') },
        ...lines, ...partialLines, ...previousLines,
      ],
      axes: [
        { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid },
          values: (_, splits) => splits.map((split) => (Number.isInteger(split) ? tickLabel(split) : '')) },
        { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid },
          ...(whole ? { incrs: wholeSteps } : {}),
          size: (_, values) => Math.max(edge, 16 + Math.max(0, ...(values ?? []).map(labelWidth))),
          values: (_, splits) => splits.map((split) => format(split)) },
      ],
      legend: { show: true, live: true },
      cursor: { points: { size: 6 } },
      hooks: { setCursor: [(u) => showTip(u, {
        currentLines: series.length + partialLines.length,
        // An incomplete line repeats the complete one's last value: shown in its own bucket only.
        hidden: (line, index) => line > series.length && line <= series.length + partialLines.length && states[index] !== 'partial',
        labelOf: (index) => `${bucketLabel(buckets[index], interval, { long: true })}${states[index] === 'partial' ? ' (incomplete)' : ''}`,
        previousLabelOf: (index) => bucketLabel(previous?.buckets?.[index], interval, { long: true }),
      })] },
    };
    element.replaceChildren();
    const plot = new uPlot(options, data, element);
    plot.root.style.color = text;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => { resize.disconnect(); plot.destroy(); };
  }, [buckets, series, previous, interval, format, height, theme, states.join(), stacked]);

  const tableRows = buckets.length <= 400 ? buckets : [];
  return html`<figure class="timeline">
    <div class="timeline-plot" ref=${holder} aria-hidden="true" data-chart=${label}></div>
    ${tableRows.length > 0 && html`<div class="visually-hidden"><table>
      <caption>${label}</caption>
      <thead><tr><th scope="col">Period</th>
        ${series.map((line) => html`<th scope="col">${line.label}</th>`)}
        ${(previous?.series ?? []).map((line) => html`<th scope="col">${line.label}</th>`)}</tr></thead>
      <tbody>${tableRows.map((bucket, index) => html`<tr>
        <th scope="row">${bucketLabel(bucket, interval, { long: true })}${states[index] === 'partial' ? ' (incomplete)' : ''}</th>
        ${series.map((line) => html`<td>${states[index] === 'future' ? '—' : format(line.data[index] ?? null)}</td>`)}
        ${(previous?.series ?? []).map((line) => html`<td>${format(line.data[index] ?? null)}</td>`)}
      </tr>`)}</tbody>
    </table></div>`}
  </figure>`;
}
