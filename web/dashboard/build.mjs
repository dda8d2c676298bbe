// Builds the dashboard into dist/ for the sightline binary to embed:
//   dist/index.html            the shell; every <script>/<link> carries nonce="__CSP_NONCE__",
//                              which the server replaces with a fresh nonce per response
//   dist/assets/*              hashed, immutable JS chunks, the CSS and the world atlas, each
//                              also precompressed as .gz (gzip -9) and .br (brotli 11)
//   dist/mcp-app/reports.html  the MCP Apps view, one self-contained file (when its source exists)
//   dist/manifest.txt          "<url path>=<path in dist>" for every file the server serves
//   dist/sizes.json            raw/gzip/brotli bytes per file, and what the first view loads
// Usage: node build.mjs [--dev]   (--dev: no minification, for reading stack traces)
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const here = dirname(new URL(import.meta.url).pathname);
const dist = join(here, 'dist');
const assets = join(dist, 'assets');
const dev = process.argv.includes('--dev');
const firstViewBudgetGzip = 60 * 1024;

// Checked before anything is removed, so a failed check leaves the last build in place.
const operations = operationsTable();

rmSync(dist, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

// The application: ES modules with code splitting, so each page (and the map, the QR code
// generator…) is a chunk loaded by dynamic import only when it is shown.
const app = await build({
  entryPoints: { app: join(here, 'src/main.js') },
  absWorkingDir: here, // metafile paths are relative to it
  outdir: assets,
  bundle: true,
  format: 'esm',
  splitting: true,
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  minify: !dev,
  target: ['es2020'],
  legalComments: 'none',
  metafile: true,
  // The atlas JSON is imported as a URL (`import atlasUrl from 'world-atlas/countries-110m.json'`
  // with the 'file' loader) so it becomes a hashed asset fetched from /assets, not inlined JS.
  loader: { '.json': 'file', '.svg': 'file', '.woff2': 'file' },
  publicPath: '/assets',
  plugins: [operations, pageStyles()],
  logLevel: 'warning',
});

/**
 * The REST operations the source calls, by operationId (src/operations.js imports the table as
 * 'sightline:operations'). Every operationId named in the source — the first argument of
 * api.call, api.stream, useOperation, operation, invalidate or requestFor, which must be a
 * string literal — must be in src/generated/operations.json, the table generated from the OpenAPI document
 * (operations.mjs; the CTest entry dashboard_operations checks it against the binary's): a
 * renamed or removed operation fails the build. The module holds only the operations named.
 */
function operationsTable() {
  const table = JSON.parse(readFileSync(join(here, 'src/generated/operations.json'), 'utf8'));
  const named = new Map();
  const problems = [];
  // The modules that forward an operationId they were given.
  const forwarding = new Set(['api.js', 'operations.js', 'data.js']);
  const callee = /(?<!function )\b(api\.call|api\.stream|useOperation|operation|invalidate|requestFor)\(\s*(?:(['"])([^'"]*)\2|([^)\s]))/g;
  for (const file of walk(join(here, 'src')).filter((path) => path.endsWith('.js'))) {
    const rel = relative(join(here, 'src'), file).split('\\').join('/');
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(callee)) {
      const line = text.slice(0, match.index).split('\n').length;
      const id = match[3];
      if (id === undefined) {
        if (!forwarding.has(rel) && match[4] !== ')') problems.push(`src/${rel}:${line}: ${match[1]}() needs an operationId as a string literal`);
      } else if (!table[id]) {
        problems.push(`src/${rel}:${line}: ${id} is not an operation of the API (src/generated/operations.json)`);
      } else {
        named.set(id, table[id]);
      }
    }
  }
  if (problems.length > 0) {
    process.stderr.write(`dashboard: operations the API does not have\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  const used = Object.fromEntries([...named].sort(([a], [b]) => a.localeCompare(b)));
  return {
    name: 'operations-table',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^sightline:operations$/ }, () => ({ path: 'operations', namespace: 'operations-table' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'operations-table' }, () => ({
        contents: `export default ${JSON.stringify(used)};`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The report pages are lazily loaded chunks, and esbuild does not inject a lazy chunk's CSS, so
 * every page's stylesheet goes into the one app CSS file: main.js imports 'sightline:page-styles',
 * which @imports each of these that exists.
 */
function pageStyles() {
  const sheets = ['charts/charts.css', 'reports/reports.css', 'live/live.css', 'assistant/assistant.css', 'ai-visibility/ai-visibility.css', 'site-audit/site-audit.css'];
  return {
    name: 'page-styles',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^sightline:page-styles$/ }, () => ({ path: 'page-styles.css', namespace: 'page-styles' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'page-styles' }, () => ({
        contents: sheets.filter((sheet) => existsSync(join(here, 'src', sheet))).map((sheet) => `@import './${sheet}';`).join('\n') || '/* no page styles yet */',
        loader: 'css',
        resolveDir: join(here, 'src'),
      }));
    },
  };
}

// Which output is the entry, and which CSS belongs to it.
const outputs = app.metafile.outputs;
const outPath = (abs) => relative(dist, join(here, abs)).split('\\').join('/');
const entryKey = Object.keys(outputs).find((key) => outputs[key].entryPoint?.endsWith('src/main.js') && key.endsWith('.js'));
const entry = outPath(entryKey);
const cssKey = outputs[entryKey].cssBundle;
const css = cssKey ? outPath(cssKey) : null;

// The first view loads the entry and, transitively, its static imports (not dynamic ones),
// then the page a signed-in user lands on, web analytics (src/reports/web.js, with the charts):
// the budget counts all of it.
const shell = new Set();
const visitInto = (set) => {
  const visit = (key) => {
    if (set.has(key)) return;
    set.add(key);
    for (const imp of outputs[key].imports) if (imp.kind === 'import-statement') visit(imp.path);
  };
  return visit;
};
visitInto(shell)(entryKey);
const firstView = new Set(shell);
const landingKey = Object.keys(outputs).find((key) => outputs[key].entryPoint?.endsWith('src/reports/web.js') && key.endsWith('.js'));
if (landingKey) visitInto(firstView)(landingKey);

// index.html: the template with the hashed names and the nonce placeholder. The entry's static
// imports are preloaded so the browser fetches them in parallel with the entry.
const template = readFileSync(join(here, 'src/index.html'), 'utf8');
const preloads = [...shell].filter((key) => key !== entryKey)
  .map((key) => `<link rel="modulepreload" href="/${outPath(key)}" nonce="__CSP_NONCE__">`).join('\n    ');
const head = [
  css ? `<link rel="stylesheet" href="/${css}" nonce="__CSP_NONCE__">` : '',
  preloads,
  `<script type="module" src="/${entry}" nonce="__CSP_NONCE__"></script>`,
].filter(Boolean).join('\n    ');
writeFileSync(join(dist, 'index.html'), template.replace('<!-- build:head -->', head));

// The MCP Apps view: one HTML file with its script and style inline (hosts load it from a
// ui:// resource, so it cannot fetch anything else).
const mcpEntry = join(here, 'src/mcp-app/main.js');
if (existsSync(mcpEntry)) await buildMcpApp(mcpEntry);

async function buildMcpApp(entryPoint) {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    format: 'iife',
    minify: !dev,
    target: ['es2020'],
    legalComments: 'none',
    write: false,
    outdir: join(dist, 'mcp-app'),
    loader: { '.json': 'json' },
    logLevel: 'warning',
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
  const style = result.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? '';
  const templatePath = join(here, 'src/mcp-app/index.html');
  // "</script" inside the bundle would end the inline script early.
  const safeJs = js.replace(/<\/script/gi, '<\\/script');
  const safeCss = style.replace(/<\/style/gi, '<\\/style');
  let html;
  if (existsSync(templatePath)) {
    html = readFileSync(templatePath, 'utf8')
      .replace('<!-- build:style -->', () => `<style>${safeCss}</style>`)
      .replace('<!-- build:script -->', () => `<script>${safeJs}</script>`);
  } else {
    html = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Sightline report</title>\n` +
      `<style>${safeCss}</style>\n</head>\n<body>\n<div id="app"></div>\n<script>${safeJs}</script>\n</body>\n</html>\n`;
  }
  mkdirSync(join(dist, 'mcp-app'), { recursive: true });
  writeFileSync(join(dist, 'mcp-app/reports.html'), html);
}

// Precompress, then list every served file with its URL and sizes.
const compressible = /\.(js|css|json|html|svg|txt)$/;
const files = walk(dist);
const manifest = [];
const sizes = { files: {}, firstView: {} };
for (const file of files) {
  const rel = relative(dist, file).split('\\').join('/');
  const raw = readFileSync(file);
  const entrySizes = { raw: raw.length };
  if (compressible.test(rel)) {
    const gz = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, { params: {
      [zlib.BROTLI_PARAM_QUALITY]: 11,
      [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
      [zlib.BROTLI_PARAM_MODE]: /\.(js|css|html|json|svg|txt)$/.test(rel) ? zlib.BROTLI_MODE_TEXT : zlib.BROTLI_MODE_GENERIC,
    } });
    // index.html changes per response (the nonce), so the server cannot use a precompressed copy.
    if (rel !== 'index.html') {
      writeFileSync(`${file}.gz`, gz);
      writeFileSync(`${file}.br`, br);
    }
    entrySizes.gzip = gz.length;
    entrySizes.brotli = br.length;
  }
  sizes.files[rel] = entrySizes;
  if (rel === 'index.html') manifest.push(`/index.html=${rel}`);
  else if (rel === 'mcp-app/reports.html') manifest.push(`ui://sightline/reports.html=${rel}`);
  else manifest.push(`/${rel}=${rel}`);
}
manifest.sort();
writeFileSync(join(dist, 'manifest.txt'), manifest.join('\n') + '\n');

const firstViewFiles = [...firstView].map(outPath);
const sum = (key) => firstViewFiles.reduce((total, rel) => total + (sizes.files[rel][key] ?? 0), 0);
sizes.firstView = {
  files: firstViewFiles,
  css,
  jsRaw: sum('raw'),
  jsGzip: sum('gzip'),
  jsBrotli: sum('brotli'),
  budgetGzip: firstViewBudgetGzip,
  withinBudget: sum('gzip') <= firstViewBudgetGzip,
};
writeFileSync(join(dist, 'sizes.json'), JSON.stringify(sizes, null, 2) + '\n');

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
process.stdout.write(`dashboard: ${files.length} files; first view JS ${kb(sizes.firstView.jsRaw)} raw, ` +
  `${kb(sizes.firstView.jsGzip)} gzip (budget ${kb(firstViewBudgetGzip)})` +
  `${existsSync(join(dist, 'mcp-app/reports.html')) ? `; mcp-app/reports.html ${kb(sizes.files['mcp-app/reports.html'].gzip)} gzip` : ''}\n`);
if (!sizes.firstView.withinBudget) {
  process.stderr.write('dashboard: the first view is over its 60 KB gzip budget\n');
  process.exitCode = 1;
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  }).sort();
}
