// A QR code drawn as SVG elements created from JS (the CSP allows no inline style attributes, and
// no images from elsewhere). qrcode-generator is loaded only when a QR code is shown.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

const svgNs = 'http://www.w3.org/2000/svg';

export function QrCode({ text, label, size = 200 }) {
  const ref = useRef(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let cancelled = false;
    import('qrcode-generator').then(({ default: qrcode }) => {
      if (cancelled || !ref.current) return;
      const code = qrcode(0, 'M');
      code.addData(text);
      code.make();
      const count = code.getModuleCount();
      const quiet = 4;
      const svg = document.createElementNS(svgNs, 'svg');
      svg.setAttribute('viewBox', `0 0 ${count + quiet * 2} ${count + quiet * 2}`);
      svg.setAttribute('width', String(size));
      svg.setAttribute('height', String(size));
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', label);
      svg.setAttribute('shape-rendering', 'crispEdges');
      const background = document.createElementNS(svgNs, 'rect');
      background.setAttribute('width', '100%');
      background.setAttribute('height', '100%');
      background.setAttribute('fill', '#ffffff');
      svg.appendChild(background);
      // One path for every dark module keeps the DOM small.
      let d = '';
      for (let row = 0; row < count; row += 1) {
        for (let col = 0; col < count; col += 1) {
          if (code.isDark(row, col)) d += `M${col + quiet} ${row + quiet}h1v1h-1z`;
        }
      }
      const path = document.createElementNS(svgNs, 'path');
      path.setAttribute('d', d);
      path.setAttribute('fill', '#000000');
      svg.appendChild(path);
      ref.current.replaceChildren(svg);
    }).catch((caught) => { if (!cancelled) setError(caught); });
    return () => { cancelled = true; };
  }, [text]);
  // Preact renders no children into the ref'd element, so it leaves the SVG alone on updates.
  return html`<div class="qr">
    <div class="qr-image" ref=${ref}></div>
    ${error && html`<p>The QR code could not be drawn; type the key below instead.</p>`}
  </div>`;
}
