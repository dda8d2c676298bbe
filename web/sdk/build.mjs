// Builds the SDK with esbuild: dist/sightline.min.js (the script tag, minified IIFE) and
// dist/sightline.esm.js (the ES module), and prints the script's minified+gzipped size.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const here = new URL('.', import.meta.url).pathname;
const common = { bundle: true, target: ['es2020'], legalComments: 'none', logLevel: 'warning' };
await build({ ...common, entryPoints: [`${here}src/script.js`], outfile: `${here}dist/sightline.min.js`,
              format: 'iife', minify: true });
await build({ ...common, entryPoints: [`${here}src/index.js`], outfile: `${here}dist/sightline.esm.js`,
              format: 'esm', minify: true });
const script = readFileSync(`${here}dist/sightline.min.js`);
process.stdout.write(`sightline.min.js: ${script.length} bytes, ${gzipSync(script, { level: 9 }).length} gzipped\n`);
