/**
 * Stack-trace parsing for the dialects Medic meets in logs: Node/TypeScript, Python, Java/Kotlin,
 * .NET, Go, Ruby and PHP. Pure and tolerant: anything that is not a frame is ignored.
 *
 * Frames come out innermost first, root cause first: a Python traceback (printed oldest call
 * first) is reversed, and for chained exceptions (`Caused by:`, `[cause]:`) the deepest cause's
 * frames lead, because that is where the failure started.
 */
export type TraceLanguage = 'node' | 'python' | 'java' | 'dotnet' | 'go' | 'ruby' | 'php';

/** One frame of a stack trace, in any of the languages Medic reads. */
export interface StackFrame {
  file: string;
  fn?: string;
  line?: number;
  /** False for runtime, standard-library and dependency frames. */
  inApp: boolean;
  language?: TraceLanguage;
  /** Java class, .NET type or Go package the frame belongs to, when the trace names it. */
  module?: string;
}

export interface ParsedTrace {
  exceptionType?: string;
  /** The text after the exception type on its line, when there is one. */
  message?: string;
  frames: StackFrame[];
}

const LIBRARY_PATH =
  /(node_modules|site-packages|dist-packages|\/usr\/lib\/|\/usr\/local\/lib\/|\/usr\/local\/go\/|^node:|^internal\/|\/go\/pkg\/mod\/|\$GOROOT|\/runtime\/|(^|\/)vendor\/|\.m2\/|\/gems\/|\/rubygems\/|\/ruby\/\d|\/lib\/python\d|<frozen |^<)/;
const LIBRARY_JAVA = /^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|org\.springframework|org\.apache|org\.hibernate|io\.netty|reactor|io\.micronaut|io\.quarkus|okhttp3|retrofit2|com\.fasterxml|com\.google)\./;
const LIBRARY_DOTNET = /^(System|Microsoft|Newtonsoft|Npgsql|Grpc|Polly)\./;

type Build = (m: RegExpExecArray) => StackFrame | undefined;

// Order matters: Java and .NET frames also start with "at ", so they are tried before Node's.
const FRAME_PATTERNS: { re: RegExp; build: Build }[] = [
  // Java/Kotlin: at com.shop.payment.Client.charge(Client.java:42) | at app//com.x.Y.z(Y.kt:3)
  { re: /^\s*at\s+(?:[\w.$-]+\/\/?)?([\w$.]+)\.([\w$<>-]+)\(([\w$-]+\.(?:java|kt|kts|scala|groovy|clj)):(\d+)\)/, build: (m) => javaFrame(m[1] ?? '', m[2], m[3] ?? '', m[4]) },
  // .NET:    at Shop.Checkout.Total(Decimal x) in C:\src\Shop\Checkout.cs:line 42
  { re: /^\s*at\s+([^\s(]+?)\.([^.\s(]+)\([^)]*\)\s+in\s+(.+?):line\s+(\d+)\s*$/, build: (m) => dotnetFrame(m[1] ?? '', m[2], m[3], m[4]) },
  // Node:    at fn (/srv/app/src/x.ts:12:5) | at async Foo.bar [as baz] (file:///x.js:1:2) | at /x.js:1:2
  { re: /^\s*at\s+(?:async\s+)?(?:(.+?)\s+\()?((?:[A-Za-z]:)?[^()\s]+?):(\d+)(?::\d+)?\)?\s*$/, build: (m) => nodeFrame(m[2], m[1], m[3]) },
  // Python:  File "/srv/app/payments/client.py", line 42, in charge
  { re: /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/, build: (m) => frame('python', m[1], m[3], m[2]) },
  // Ruby:    /srv/app/lib/cart.rb:12:in `total'  |  from app/models/order.rb:3:in 'Order#total'
  { re: /^\s*(?:from\s+)?((?:[A-Za-z]:)?[\w./\\-]+\.(?:rb|rake|erb)):(\d+):in [`']([^']+)'/, build: (m) => frame('ruby', m[1], rubyFn(m[3]), m[2]) },
  // Go:      /srv/app/internal/pager/pager.go:42 +0x1d  (the function is on the previous line)
  { re: /^\s*((?:\/|\w:)?[\w./@\\-]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/, build: (m) => frame('go', m[1], undefined, m[2]) },
  // PHP:     Uncaught X: message in /var/www/src/Cart.php:42   |   thrown in /var/www/src/Cart.php on line 42
  { re: /\bin ((?:[A-Za-z]:)?[^\s:]+\.php)(?::| on line )(\d+)\s*$/, build: (m) => frame('php', m[1], undefined, m[2]) },
  // PHP:     #0 /var/www/src/Cart.php(42): Shop\Cart->total()
  { re: /^\s*#\d+\s+((?:[A-Za-z]:)?[^(\s]+\.php)\((\d+)\):\s*(?:[\w\\]+(?:->|::))?(\w+)?/, build: (m) => frame('php', m[1], m[3], m[2]) },
];

function cleanPath(file: string): string {
  return file
    .replace(/^file:\/\//, '')
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/[?#].*$/, '');
}

function frame(language: TraceLanguage, file: string | undefined, fn: string | undefined, line: string | undefined): StackFrame {
  const path = cleanPath(file ?? '');
  const out: StackFrame = { file: path, fn: fn || undefined, line: line ? Number(line) : undefined, inApp: !LIBRARY_PATH.test(path.replace(/\\/g, '/')), language };
  return out;
}

function nodeFrame(file: string | undefined, fn: string | undefined, line: string | undefined): StackFrame | undefined {
  if (!file || file === 'native' || /^<anonymous>$/.test(file)) return undefined;
  const name = fn?.replace(/\s*\[as [^\]]+\]$/, '').replace(/^async\s+/, '');
  return frame('node', file, name, line);
}

function rubyFn(label: string | undefined): string | undefined {
  // "block (2 levels) in Cart#total" → "total"
  return label?.replace(/^.*\bin\s+/, '').replace(/^.*[#.]/, '') || undefined;
}

function javaFrame(qualifiedClass: string, fn: string | undefined, fileName: string, line: string | undefined): StackFrame {
  const pkg = qualifiedClass.split('.').slice(0, -1).join('/');
  const language: TraceLanguage = 'java';
  return { file: pkg ? `${pkg}/${fileName}` : fileName, fn, line: line ? Number(line) : undefined, inApp: !LIBRARY_JAVA.test(qualifiedClass), language, module: qualifiedClass };
}

function dotnetFrame(type: string, fn: string | undefined, file: string | undefined, line: string | undefined): StackFrame {
  // Async state machines print as Shop.Cart.<Total>d__4.MoveNext: the method is inside the brackets.
  const asyncMethod = /<([^>]+)>d__\d+$/.exec(type)?.[1];
  const owner = asyncMethod ? type.replace(/\.<[^>]+>d__\d+$/, '') : type;
  return { ...frame('dotnet', file, asyncMethod ?? fn, line), inApp: !LIBRARY_DOTNET.test(owner), module: owner };
}

const EXCEPTION_LINE =
  /^\s*(?:Caused by: |Exception in thread "[^"]*" |Uncaught |Unhandled exception\. |\[cause\]: )?((?:[A-Za-z_$][\w$]*(?:\.|::|\\))*[A-Z][\w$]*(?:Error|Exception|Panic|Fault|Failure|Exit|Interrupt))\b(?::\s*(.*))?/;
const RUBY_EXCEPTION = /:in [`'][^']+': (.*) \(([A-Z]\w*(?:::[A-Z]\w*)*)\)\s*$/;
const GO_PANIC = /^panic: (.*)$/;
/** A line that starts a new exception in a chain whose later entries are deeper causes. */
const CAUSE_LINE = /^\s*(?:Caused by: |\[cause\]: |\{ \[cause\]: |cause: )/;
/** Python prints a new traceback for each exception of a chain; the first is the original. */
const PYTHON_TRACEBACK = /^\s*Traceback \(most recent call last\):/;
const SUPPRESSED_LINE = /^\s*Suppressed: /;

interface Section {
  frames: StackFrame[];
  kind: 'plain' | 'cause' | 'python' | 'suppressed';
}

/** Parses the exception type and frames out of a raw error text; tolerant of anything. */
export function parseStackTrace(raw: string): ParsedTrace {
  // A trace stored as one JSON-escaped line is split on the escapes; real newlines win otherwise
  // (Windows paths such as C:\src\new\x.cs contain a literal backslash-n).
  const lines = raw.split(/\r?\n/).length > 1 ? raw.split(/\r?\n/).slice(0, 600) : raw.split(/\\n/).slice(0, 600);
  let exceptionType: string | undefined;
  let message: string | undefined;
  const sections: Section[] = [{ frames: [], kind: 'plain' }];
  let goFunction: string | undefined;
  for (const line of lines) {
    if (line.length > 2_000) continue;
    if (!exceptionType) {
      const found = exceptionOf(line);
      if (found) ({ exceptionType, message } = found);
    }
    const current = sections[sections.length - 1]!;
    if (PYTHON_TRACEBACK.test(line)) startSection(sections, 'python');
    else if (CAUSE_LINE.test(line)) startSection(sections, 'cause');
    else if (SUPPRESSED_LINE.test(line)) startSection(sections, 'suppressed');
    for (const { re, build } of FRAME_PATTERNS) {
      const m = re.exec(line);
      if (!m) continue;
      const f = build(m);
      if (f?.file) (sections[sections.length - 1] ?? current).frames.push(f.fn || !goFunction ? f : { ...f, fn: goFunction.replace(/^.*\./, '') });
      break;
    }
    const goFn = /^([\w./@-]+\.[\w$*().]+)\(.*\)$/.exec(line.trim());
    goFunction = goFn?.[1];
  }
  return { exceptionType, message, frames: orderFrames(sections) };
}

function startSection(sections: Section[], kind: Section['kind']): void {
  const last = sections[sections.length - 1];
  // A "Traceback" header right at the start reuses the empty first section.
  if (last && last.frames.length === 0 && last.kind === 'plain') last.kind = kind;
  else sections.push({ frames: [], kind });
}

function exceptionOf(line: string): { exceptionType: string; message?: string } | undefined {
  const ruby = RUBY_EXCEPTION.exec(line);
  if (ruby?.[2]) return { exceptionType: ruby[2].replace(/^.*::/, ''), message: ruby[1] };
  const m = EXCEPTION_LINE.exec(line);
  if (m?.[1]) return { exceptionType: m[1].replace(/^.*(?:[.:]|\\)/, ''), message: m[2]?.trim() || undefined };
  const go = GO_PANIC.exec(line);
  if (go) return { exceptionType: 'panic', message: go[1] };
  return undefined;
}

function orderFrames(sections: Section[]): StackFrame[] {
  const lead: Section[] = [];
  const tail: Section[] = [];
  for (const section of sections) {
    if (section.kind === 'python') section.frames.reverse();
    if (section.kind === 'cause') lead.unshift(section);
    else if (section.kind === 'suppressed') tail.push(section);
    else lead.push(section);
  }
  // Deeper causes were unshifted ahead of the outer exception; suppressed ones come last.
  return [...lead, ...tail].flatMap((s) => s.frames);
}
