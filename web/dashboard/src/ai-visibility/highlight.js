// Where an answer mentions the tracked brands: pure, unit-tested in test/highlight.test.js.
const isUnicodeWord = (char) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);

/**
 * The answer cut into text and marks: every occurrence of a mentioned brand's name or alias
 * (case-insensitive, at word boundaries), and at least the server's first-mention offset (a
 * UTF-16 index into the answer). Returns [{ text, brandId? }].
 */
export function highlight(answer, mentions, brandsById) {
  const spans = [];
  const lower = answer.toLocaleLowerCase();
  // Lower-casing can change a string's length (İ): then only the server's offsets are used.
  const aligned = lower.length === answer.length;
  const taken = (start, end) => spans.some((span) => start < span.end && end > span.start);
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
    for (const term of aligned ? terms : []) {
      let from = 0;
      for (;;) {
        const start = lower.indexOf(term, from);
        if (start < 0) break;
        const end = start + term.length;
        from = start + 1;
        if (isUnicodeWord(answer[start - 1]) || isUnicodeWord(answer[end])) continue;
        if (!taken(start, end)) spans.push({ start, end, brandId: mention.brandId });
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
