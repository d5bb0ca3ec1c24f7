import { WILDCARD } from './templates/wildcard.js';

/** Characters of a title on one card line, and of one variable's value inside it. */
export const TITLE_CHARS = 120;
const VALUE_CHARS = 48;
/** Characters of a sample looked at: a family's template never reaches past its first 4 KB. */
const SAMPLE_CHARS = 4_096;

const SPACES = /\s+/g;

function oneLine(text: string): string {
  return text.replace(SPACES, ' ').trim();
}

/** Cut at the last whole word that fits, marked with "…"; a single word longer than `max` is cut inside. */
export function cutOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 3 ? room.slice(0, space) : room).trimEnd()}…`;
}

/**
 * Where the template's literal parts sit in one sample, as the values between them; undefined
 * when the sample is not of this template. The first part may be cut short at a word (a title
 * that leads with the exception type the message itself lacks). Plain substring search, no
 * regular expression: linear in the sample for each part.
 */
function valuesIn(parts: readonly string[], sample: string): string[] | undefined {
  const [head = '', ...rest] = parts;
  const at = sample.indexOf(head);
  let pos = at >= 0 ? at + head.length : -1;
  // A suffix of the head from a word boundary that opens the sample ("TypeError: upstream …" over "upstream …").
  for (let cut = head.indexOf(' '); pos < 0 && cut >= 0; cut = head.indexOf(' ', cut + 1)) {
    const tail = head.slice(cut + 1);
    if (tail.trim() !== '' && sample.startsWith(tail)) pos = tail.length;
  }
  if (pos < 0) return undefined;
  const values: string[] = [];
  for (const [i, part] of rest.entries()) {
    const last = i === rest.length - 1;
    // The last value runs to the end of the sample's line when nothing follows it in the template.
    const end = last && part === '' ? sample.length : sample.indexOf(part, part === '' ? pos + 1 : pos);
    if (end < 0) return undefined;
    values.push(sample.slice(pos, end).trim());
    pos = end + part.length;
  }
  return values;
}

/**
 * A family's title as people read it: each variable part of the template (`<*>`) shows the value
 * most samples had there (the first sample's on a tie, so the first event decides an even split),
 * on one line, cut on a word. `title` may lead with text the messages lack (the exception type);
 * `template`, when given and inside `title`, is the part the samples are matched against. A part
 * no sample fills shows as "…": a displayed title never holds a placeholder.
 */
export function displayTitle(title: string, samples: readonly string[], options: { template?: string; maxChars?: number } = {}): string {
  const max = options.maxChars ?? TITLE_CHARS;
  const flat = oneLine(title);
  const template = options.template === undefined ? undefined : oneLine(options.template);
  const matched = template && template.includes(WILDCARD) && flat.includes(template) ? template : flat;
  if (!matched.includes(WILDCARD)) return cutOnWord(flat, max);
  const parts = matched.split(WILDCARD);
  const counts = parts.slice(1).map(() => new Map<string, number>());
  for (const sample of samples) {
    const line = oneLine((sample.split('\n', 1)[0] ?? '').slice(0, SAMPLE_CHARS));
    const values = valuesIn(parts, line);
    if (!values) continue;
    values.forEach((value, i) => {
      if (value !== '') counts[i]!.set(value, (counts[i]!.get(value) ?? 0) + 1);
    });
  }
  const filled = parts.reduce((text, part, i) => {
    if (i === 0) return part;
    let best: string | undefined;
    let most = 0;
    for (const [value, n] of counts[i - 1]!) if (n > most) [best, most] = [value, n];
    return `${text}${best === undefined ? '…' : cutOnWord(best, VALUE_CHARS)}${part}`;
  }, '');
  return cutOnWord(oneLine(matched === flat ? filled : flat.replace(matched, () => filled)), max);
}

/** An incident's display title from its first event and the samples the store keeps of its events. */
export function incidentDisplayTitle(incident: { title: string; family?: { template: string } | undefined; firstEvent: { message: string } }, messages: readonly string[] = []): string {
  return displayTitle(incident.title, [incident.firstEvent.message, ...messages], incident.family ? { template: incident.family.template } : {});
}
