import { describe, expect, it } from 'vitest';
import { splitMarkdownSections } from '../../src/retrieval/markdown-sections.js';

describe('splitMarkdownSections', () => {
  it('splits at ## headings, titles from # and applies the metadata lines to every section', () => {
    const sections = splitMarkdownSections('# Family\n\nService: shop\nError code: CO-500\n\n## Symptom\nboom\n\n## Cause\n### detail\nwhy\n', 'file');
    expect(sections).toEqual([
      { title: 'Family', heading: 'Symptom', body: 'boom', service: 'shop', errorCode: 'CO-500' },
      { title: 'Family', heading: 'Cause', body: '### detail\nwhy', service: 'shop', errorCode: 'CO-500' },
    ]);
  });

  it('reads bold and list forms of the metadata, and keeps prose before the first ## as an overview', () => {
    const sections = splitMarkdownSections('# T\n- **Service:** payments\n- **Error code:** `PAY-504`\n\nIntro text.\n\n## Fix\nretry\n', 'file');
    expect(sections.map((s) => s.heading)).toEqual(['Overview', 'Fix']);
    expect(sections[0]).toMatchObject({ service: 'payments', errorCode: 'PAY-504' });
    expect(sections[0]!.body).toContain('Intro text.');
  });

  it('does not split inside code fences', () => {
    const sections = splitMarkdownSections('# T\n## A\n```\n## not a heading\n```\n', 'file');
    expect(sections).toHaveLength(1);
    expect(sections[0]!.body).toContain('## not a heading');
  });

  it('falls back to the file name for the title, and drops empty sections', () => {
    const sections = splitMarkdownSections('## Empty\n\n## Full\ntext\r\n', 'fallback');
    expect(sections).toEqual([{ title: 'fallback', heading: 'Full', body: 'text' }]);
  });
});
