/**
 * The informative part of an error message: the words around a payload, not the payload. A
 * message that embeds a response body (`warehouse API returned an unreadable body: {"items":[…32 KB…]}`),
 * an HTML error page or a base64 blob says what failed in its first words; the body only drowns
 * them when the message is matched against documents or shown in one line. Pure and linear: one
 * pass that tracks bracket depth and JSON strings.
 */

/** A bracketed span or document longer than this is a payload, not words. */
const PAYLOAD_CHARS = 120;
/** An unbroken run of this many characters (base64, hex, a minified blob) is one too. */
const TOKEN_CHARS = 160;
const DOCUMENT_START = /<(?:\?xml|!DOCTYPE|html|soap:Envelope|[A-Za-z][\w:-]*\s+xmlns)/i;

function payloadMark(length: number): string {
  return `…(${length} chars)`;
}

/** The end (exclusive) of the bracketed span opening at `start`, or the text's end when it never closes. */
function spanEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === '\n') return i;
  }
  return text.length;
}

function cutBrackets(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const end = spanEnd(text, i);
    if (end - i > PAYLOAD_CHARS) {
      out += `${text.slice(from, i)}${c}${payloadMark(end - i)}`;
      from = end;
    }
    // A short span is kept as it is (`[0, 4]`, `{id: 7}`), and so is what it holds.
    i = end - 1;
  }
  return out + text.slice(from);
}

function cutDocuments(text: string): string {
  const m = DOCUMENT_START.exec(text);
  if (!m) return text;
  const lineEnd = text.indexOf('\n', m.index);
  const end = lineEnd === -1 ? text.length : lineEnd;
  return end - m.index > PAYLOAD_CHARS ? `${text.slice(0, m.index)}${m[0]}${payloadMark(end - m.index)}${text.slice(end)}` : text;
}

function cutTokens(text: string): string {
  return text.replace(new RegExp(`\\S{${TOKEN_CHARS},}`, 'g'), (token) => `${token.slice(0, 24)}${payloadMark(token.length)}`);
}

/**
 * `text` with every long embedded payload — a JSON object or array, an XML or HTML document, an
 * unbroken blob — cut to its first character and a note of its length. Short bracketed values and
 * the words around them are kept as they are.
 */
export function informativeText(text: string): string {
  return cutTokens(cutDocuments(cutBrackets(text)));
}
