/** One frame of a stack trace, in any of the languages Medic reads. */
export interface StackFrame {
  file: string;
  fn?: string;
  line?: number;
  /** False for runtime, standard-library and dependency frames. */
  inApp: boolean;
}

export interface ParsedTrace {
  exceptionType?: string;
  frames: StackFrame[];
}

const LIBRARY_PATH = /(node_modules|site-packages|dist-packages|\/usr\/lib\/|\/usr\/local\/lib\/|^node:|^internal\/|\/go\/pkg\/mod\/|\$GOROOT|\/runtime\/|vendor\/|\.m2\/|gems\/|\/rubygems\/)/;
const LIBRARY_JAVA = /^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.springframework|org\.apache|io\.netty|reactor)\./;
const LIBRARY_DOTNET = /^(System|Microsoft)\./;

// Each pattern names the file and function groups for one trace dialect.
const FRAME_PATTERNS: { re: RegExp; build: (m: RegExpExecArray) => StackFrame | undefined }[] = [
  // Node:    at fn (/srv/app/src/x.ts:12:5)   |   at /srv/app/src/x.ts:12:5
  { re: /^\s*at (?:(?:async )?([^\s(]+) )?\(?((?:[A-Za-z]:)?[^():\s]+):(\d+)(?::\d+)?\)?\s*$/, build: (m) => frame(m[2], m[1], m[3]) },
  // Python:  File "/srv/app/payments/client.py", line 42, in charge
  { re: /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/, build: (m) => frame(m[1], m[3], m[2]) },
  // Java/Kotlin: at com.shop.payment.Client.charge(Client.java:42)
  { re: /^\s*at ([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/, build: (m) => javaFrame(m[1] ?? '', m[2], m[3] ?? '', m[4]) },
  // .NET:    at Shop.Checkout.Total() in C:\src\Shop\Checkout.cs:line 42
  { re: /^\s*at ([\w.`<>]+)\.([\w<>`]+)\([^)]*\)(?: in (.+?):line (\d+))?\s*$/, build: (m) => (m[3] ? { ...frame(m[3], m[2], m[4]), inApp: !LIBRARY_DOTNET.test(m[1] ?? '') } : undefined) },
  // Ruby:    /srv/app/lib/cart.rb:12:in `total'
  { re: /^\s*((?:\/|\.\/)?[\w./-]+\.rb):(\d+):in [`']([^']+)'/, build: (m) => frame(m[1], m[3], m[2]) },
  // Go:      /srv/app/internal/pager/pager.go:42 +0x1d  (the function is on the previous line)
  { re: /^\s*((?:\/|\w:)?[\w./-]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/, build: (m) => frame(m[1], undefined, m[2]) },
];

function frame(file: string | undefined, fn: string | undefined, line: string | undefined): StackFrame {
  const path = (file ?? '').replace(/^file:\/\//, '');
  return { file: path, fn: fn || undefined, line: line ? Number(line) : undefined, inApp: !LIBRARY_PATH.test(path) };
}

function javaFrame(qualifiedClass: string, fn: string | undefined, fileName: string, line: string | undefined): StackFrame {
  const pkg = qualifiedClass.split('.').slice(0, -1).join('/');
  return { file: pkg ? `${pkg}/${fileName}` : fileName, fn, line: line ? Number(line) : undefined, inApp: !LIBRARY_JAVA.test(qualifiedClass) };
}

const EXCEPTION_LINE = /^\s*(?:Caused by: |Exception in thread "[^"]*" |Uncaught )?((?:[A-Za-z_$][\w$]*[.:]{1,2})*[A-Z][\w$]*(?:Error|Exception|Panic|Fault|Failure|Exit|Interrupt))\b[:\s]?/;
const GO_PANIC = /^panic: /;

/** Parses the exception type and frames out of a raw error text; tolerant of anything. */
export function parseStackTrace(raw: string): ParsedTrace {
  const lines = raw.split(/\r?\n/).slice(0, 400);
  let exceptionType: string | undefined;
  const frames: StackFrame[] = [];
  let goFunction: string | undefined;
  for (const line of lines) {
    if (line.length > 2_000) continue;
    if (!exceptionType) {
      const m = EXCEPTION_LINE.exec(line);
      if (m?.[1]) exceptionType = m[1].replace(/^.*[.:]/, '');
      else if (GO_PANIC.test(line)) exceptionType = 'panic';
    }
    for (const { re, build } of FRAME_PATTERNS) {
      const m = re.exec(line);
      if (!m) continue;
      const f = build(m);
      if (f?.file) frames.push(f.fn || !goFunction ? f : { ...f, fn: goFunction });
      break;
    }
    const goFn = /^([\w./-]+\.[\w$*().]+)\(.*\)$/.exec(line.trim());
    goFunction = goFn?.[1] ? goFn[1].replace(/^.*\./, '') : undefined;
  }
  return { exceptionType, frames };
}
