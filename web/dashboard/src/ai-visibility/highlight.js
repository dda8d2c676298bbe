// Where an answer mentions the tracked brands: pure, unit-tested in test/highlight.test.js.
const isUnicodeWord = (char) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);

/**
 * The answer cut into text and marks: every occurrence of a mentioned brand's name or alias
 * (case-insensitive, at word boundaries, not inside links, at most the server's count of
 * occurrences), and at least the server's first-mention offset (a UTF-16 index into the answer).
 * Returns [{ text, brandId?, first? }].
 */
export function highlight(answer, mentions, brandsById) {
  const spans = [];
  const lower = answer.toLocaleLowerCase();
  // Lower-casing can change a string's length (İ): then only the server's offsets are used.
  const aligned = lower.length === answer.length;
  const taken = (start, end) => spans.some((span) => start < span.end && end > span.start);
  // A name inside a link (https://acme.example/…) is not a mention, as on the server.
  const links = [...answer.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>()\[\]]+/giu)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
  const inLink = (start, end) => links.some((link) => start < link.end && end > link.start);
  for (const mention of mentions) {
    const brand = brandsById.get(mention.brandId);
    const terms = [brand?.name, ...(brand?.aliases ?? [])].filter(Boolean)
      .map((term) => term.toLocaleLowerCase()).sort((a, b) => b.length - a.length);
    // The first mention, where the server found it.
    if (mention.offset >= 0 && mention.offset < answer.length) {
      const term = aligned ? terms.find((candidate) => lower.startsWith(candidate, mention.offset)) : undefined;
      let end = mention.offset + (term?.length ?? 0);
      if (!term) { end = mention.offset; while (end < answer.length && isUnicodeWord(answer[end])) end += 1; }
      if (end > mention.offset && !taken(mention.offset, end)) spans.push({ start: mention.offset, end, brandId: mention.brandId, first: true });
    }
    // No more marks than the server counted occurrences.
    let marked = spans.filter((span) => span.brandId === mention.brandId).length;
    const most = mention.occurrences ?? Infinity;
    for (const term of aligned ? terms : []) {
      let from = 0;
      while (marked < most) {
        const start = lower.indexOf(term, from);
        if (start < 0) break;
        const end = start + term.length;
        from = start + 1;
        if (isUnicodeWord(answer[start - 1]) || isUnicodeWord(answer[end]) || inLink(start, end)) continue;
        if (!taken(start, end)) { spans.push({ start, end, brandId: mention.brandId }); marked += 1; }
      }
    }
  }
  spans.sort((a, b) => a.start - b.start);
  const parts = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at) parts.push({ text: answer.slice(at, span.start) });
    parts.push({ text: answer.slice(span.start, span.end), brandId: span.brandId, first: span.first });
    at = span.end;
  }
  if (at < answer.length) parts.push({ text: answer.slice(at) });
  return parts;
}
