/**
 * The names lines of code declare and the names they mention, read without knowing the language:
 * the declaration keywords most languages share (`function`, `def`, `func`, `fn`, `class`,
 * `type`, …), modifier-led methods (`public static int total(`), and — when asked — member
 * declarations (`declineReason?: string;`). A module-level `const`/`let`/`var`/`val` counts; an
 * indented one is a local and does not. Pure.
 */

const NAME = '[A-Za-z_$][\\w$]*';
/** `function f`, `def f`, `func (r *T) f`, `pub fn f`, `class C`, `type T`, `export default function f`. */
const KEYWORD = new RegExp(`(?:^|[\\s(;{}])(?:function\\*?|class|interface|type|enum|struct|trait|module|namespace|def|func|fn|fun|record|protocol|typedef|macro|object)\\s+(?:\\([^)]*\\)\\s*)?(${NAME})`, 'g');
/** A module-level binding: unindented, or exported at any indentation. */
const BINDING = new RegExp(`^(?:(?:export\\s+(?:default\\s+)?)?(?:const|let|var|val|static)|\\s*export\\s+(?:const|let|var))\\s+(?:mut\\s+)?(${NAME})`);
/** A Python-style module constant: `NAME = …` at the start of a line. */
const ASSIGNMENT = new RegExp(`^(${NAME})\\s*(?::[^=]+)?=(?!=)`);
/** A method or function led by modifiers: `public static int total(`, `private async load(`. */
const MODIFIED = new RegExp(`^\\s*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|export|default|readonly|pub|open|suspend|synchronized)\\s+)+(?:[\\w<>\\[\\],.?]+\\s+)?(${NAME})\\s*[(<]`);
/** A member declaration: `name?: Type;`, `readonly name: Type`, `name: int` — a type, not a value list. */
const MEMBER = new RegExp(`^\\s*(?:(?:readonly|pub|public|private|protected)\\s+)?(${NAME})\\??\\s*:\\s*[^,]*\\S\\s*$`);
const WORD = /[A-Za-z_$][\w$]*/g;

/** Words a declaration pattern can catch that are never names. */
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'new', 'typeof', 'await', 'yield', 'else', 'case', 'default', 'function', 'class', 'import', 'from', 'as']);

export interface DeclarationOptions {
  /** Count member declarations (`name?: Type;`) too. */
  members?: boolean;
}

/** The names `lines` declare. */
export function declaredNames(lines: readonly string[], options: DeclarationOptions = {}): Set<string> {
  const names = new Set<string>();
  const add = (name: string | undefined) => {
    if (name && !KEYWORDS.has(name)) names.add(name);
  };
  for (const line of lines) {
    for (const m of line.matchAll(KEYWORD)) add(m[1]);
    add(BINDING.exec(line)?.[1]);
    add(ASSIGNMENT.exec(line)?.[1]);
    add(MODIFIED.exec(line)?.[1]);
    if (options.members && !/,\s*$/.test(line)) add(MEMBER.exec(line)?.[1]);
  }
  return names;
}

/** Every word of `lines` that could be a name. */
export function mentionedNames(lines: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const line of lines) for (const m of line.matchAll(WORD)) names.add(m[0]);
  return names;
}

/** How often `name` occurs in `text` as a whole word. */
export function countMentions(text: string, name: string): number {
  const escaped = name.replace(/[$]/g, '\\$');
  return text.match(new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, 'g'))?.length ?? 0;
}
