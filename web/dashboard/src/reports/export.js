// Files the report pages download: CSV (RFC 4180, with a byte-order mark so spreadsheet apps
// read UTF-8) and a zip of several (stored, not compressed: CSV of a dashboard is small, and a
// stored zip needs no library). Pure but for downloadFile; unit-tested in test/export.test.js.

/** One CSV field: quoted when it holds a comma, quote or line break; numbers as they are. */
function field(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  // A leading =, +, - or @ would make a spreadsheet run the cell as a formula.
  const safe = /^[=+\-@]/.test(text) && typeof value !== 'number' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV document: the header row, then one line per row. */
export function csvOf(header, rows) {
  return `\ufeff${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (the zip format's) of bytes. */
export function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive (Uint8Array) of [{ name, text }], each stored as UTF-8, dated `date`. */
export function zipOf(files, date = new Date()) {
  const encoder = new TextEncoder();
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.name);
    const data = encoder.encode(file.text);
    const crc = crc32(data);
    // Version 2.0, flag 0x0800 (UTF-8 names), method 0 (stored).
    const common = [[20, 2], [0x0800, 2], [0, 2], [time, 2], [day, 2], [crc, 4], [data.length, 4], [data.length, 4], [name.length, 2], [0, 2]];
    const local = bytesOf([[0x04034b50, 4], ...common]);
    centrals.push(bytesOf([[0x02014b50, 4], [20, 2], ...common, [0, 2], [0, 2], [0, 2], [0, 4], [offset, 4]]), name);
    locals.push(local, name, data);
    offset += local.length + name.length + data.length;
  }
  const directorySize = centrals.reduce((size, part) => size + part.length, 0);
  const end = bytesOf([[0x06054b50, 4], [0, 2], [0, 2], [files.length, 2], [files.length, 2], [directorySize, 4], [offset, 4], [0, 2]]);
  const parts = [...locals, ...centrals, end];
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** Little-endian fields [[value, bytes], …] as bytes. */
function bytesOf(fields) {
  const out = new Uint8Array(fields.reduce((size, [, bytes]) => size + bytes, 0));
  let at = 0;
  for (const [value, bytes] of fields) {
    for (let i = 0; i < bytes; i += 1) out[at + i] = (value >>> (8 * i)) & 0xff;
    at += bytes;
  }
  return out;
}

/** Saves `content` (text or bytes) as a file the browser downloads. */
export function downloadFile(name, content, type) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
