/** One `##` section of a Markdown document, with the document's title and metadata lines. */
export interface MarkdownSection {
  title: string;
  heading: string;
  body: string;
  service?: string;
  errorCode?: string;
}

// "Service: checkout", "- **Error code:** CO-500", "Error-Code: CO-500": how the docs name their family.
const META = /^\s*(?:[-*]\s+)?(?:\*\*|__)?(service|error[ -]?code)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+?)\s*$/i;

function metaOf(line: string): { key: 'service' | 'errorCode'; value: string } | undefined {
  const m = META.exec(line);
  if (!m?.[1] || !m[2]) return undefined;
  const value = m[2].replace(/^[`*_]+|[`*_]+$/g, '').trim();
  if (value === '') return undefined;
  return { key: m[1].toLowerCase() === 'service' ? 'service' : 'errorCode', value };
}

/**
 * Splits a Markdown document at its `##` headings (not inside code fences). The `# Title` names the
 * document; text before the first `##` becomes an "Overview" section; `Service:` and `Error code:`
 * lines anywhere apply to every section. Deeper headings stay inside their section.
 */
export function splitMarkdownSections(markdown: string, fallbackTitle: string): MarkdownSection[] {
  let title: string | undefined;
  let service: string | undefined;
  let errorCode: string | undefined;
  const sections: { heading: string; lines: string[] }[] = [{ heading: 'Overview', lines: [] }];
  let fence: string | undefined;

  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMark = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fenceMark && (fence === undefined || fence === fenceMark)) fence = fence === undefined ? fenceMark : undefined;
    const current = sections[sections.length - 1];
    if (fence === undefined && !fenceMark) {
      const h1 = /^#\s+(.+?)\s*#*\s*$/.exec(line);
      if (h1?.[1] && title === undefined) {
        title = h1[1];
        continue;
      }
      const h2 = /^##\s+(.+?)\s*#*\s*$/.exec(line);
      if (h2?.[1]) {
        sections.push({ heading: h2[1], lines: [] });
        continue;
      }
      const meta = metaOf(line);
      if (meta) {
        if (meta.key === 'service') service ??= meta.value;
        else errorCode ??= meta.value;
      }
    }
    current?.lines.push(line);
  }

  return sections
    .map(({ heading, lines }) => ({ heading, body: lines.join('\n').trim() }))
    .filter(({ body, heading }) => body !== '' && !(heading === 'Overview' && body.split('\n').every((l) => metaOf(l) || l.trim() === '')))
    .map(({ heading, body }) => ({
      title: title ?? fallbackTitle,
      heading,
      body,
      ...(service === undefined ? {} : { service }),
      ...(errorCode === undefined ? {} : { errorCode }),
    }));
}
