// htm bound to Preact's h: templates instead of a JSX build step.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
