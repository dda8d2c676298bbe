// The dashboard's entry: styles, the theme chosen before the first paint, then the app.
import './styles/base.css';
// The report pages' stylesheets (src/charts, reports, live, assistant), see build.mjs.
import 'sightline:page-styles';
import { render } from 'preact';
import { html } from './ui/html.js';
import { applyStoredTheme } from './ui/theme.js';
import { App } from './app.js';

applyStoredTheme();
const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
