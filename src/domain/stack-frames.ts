/**
 * One line of a stack trace → one frame, for the dialects Medic meets in logs: Node/TypeScript,
 * Python, Java/Kotlin, .NET, Go, Ruby, PHP and Rust. Pure; a line that is not a frame gives nothing.
 */
export type TraceLanguage = 'node' | 'python' | 'java' | 'dotnet' | 'go' | 'ruby' | 'php' | 'rust';

/** One frame of a stack trace, in any of the languages Medic reads. */
export interface StackFrame {
  file: string;
  fn?: string;
  line?: number;
  /** False for runtime, standard-library and dependency frames, as far as the trace alone tells. */
  inApp: boolean;
  language?: TraceLanguage;
  /** Java class, .NET type or Go package the frame belongs to, when the trace names it. */
  module?: string;
}

const LIBRARY_PATH =
  /(node_modules|site-packages|dist-packages|\/usr\/lib\/|\/usr\/local\/lib\/|\/usr\/local\/go\/|^node:|^internal\/|\/go\/pkg\/mod\/|\$GOROOT|\/runtime\/|(^|\/)vendor\/|\.m2\/|\/gems\/|\/rubygems\/|^\/rustc\/|\.cargo\/(?:registry|git)\/|\/ruby\/\d|\/lib\/python\d|<frozen |^<)/;
const LIBRARY_JAVA = /^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|junit|org\.junit|org\.testng|org\.springframework|org\.apache|org\.hibernate|io\.netty|reactor|io\.micronaut|io\.quarkus|okhttp3|retrofit2|com\.fasterxml|com\.google)\./;
const LIBRARY_DOTNET = /^(System|Microsoft|Newtonsoft|Npgsql|Grpc|Polly|Xunit|NUnit)\./;

type Build = (m: RegExpExecArray) => StackFrame | undefined;

// Order matters: Java and .NET frames also start with "at ", so they are tried before Node's.
const FRAME_PATTERNS: { re: RegExp; build: Build }[] = [
  // Java/Kotlin: at com.shop.payment.Client.charge(Client.java:42) | at app//com.x.Y.z(Y.kt:3) | at org.jabref@100.0.0/org.jabref.X.y(X.java:9)
  { re: /^\s*at\s+(?:[\w.$@-]+\/\/?)?([\w$.]+)\.([\w$<>-]+)\(([\w$-]+\.(?:java|kt|kts|scala|groovy|clj)):(\d+)\)/, build: (m) => javaFrame(m[1] ?? '', m[2], m[3] ?? '', m[4]) },
  // .NET:    at Shop.Checkout.Total(Decimal x) in C:\src\Shop\Checkout.cs:line 42
  // an iterator or async method adds its state machine:  at Shop.Host.Start(IEnumerable`1 x)+MoveNext() in D:\a\Host.cs:line 541
  { re: /^\s*at\s+([^\s(]+?)\.([^.\s(]+)\([^)]*\)(?:\+[\w<>]+\(\))?\s+in\s+(.+?):line\s+(\d+)\s*$/, build: (m) => dotnetFrame(m[1] ?? '', m[2], m[3], m[4]) },
  // .NET without symbols: at Shop.Checkout.Cart.Total(Decimal x) — the namespace stands for the path.
  { re: /^\s*at\s+((?:[A-Z][\w`]*\.)+(?:<[^>]+>d__\d+|[\w`<>]+))\.([\w<>]+)\([^)]*\)\s*$/, build: (m) => dotnetFrame(m[1] ?? '', m[2], undefined, undefined) },
  // Rust:    thread 'main' panicked at src/x.rs:12:5:  |  panicked at 'msg', src\x.rs:41:9  (the older form quotes the message first)
  { re: /\bpanicked at (?:'.*', |".*", )?((?:[A-Za-z]:)?[^\s'"]+?\.rs):(\d+)(?::\d+)?(?::|\s|$)/, build: (m) => frame('rust', m[1], undefined, m[2]) },
  // Node:    at fn (/srv/app/src/x.ts:12:5) | at async Foo.bar [as baz] (file:///x.js:1:2) | at /x.js:1:2
  { re: /^\s*at\s+(?:async\s+)?(?:(.+?)\s+\()?((?:[A-Za-z]:)?[^()\s]+?):(\d+)(?::\d+)?\)?\s*$/, build: (m) => nodeFrame(m[2], m[1], m[3]) },
  // Node:    /srv/app/lib/login.js:29  (an uncaught exception's location, printed above its source line)
  { re: /^\s*((?:\/|[A-Za-z]:[\\/])[^\s:()]+\.(?:js|mjs|cjs|jsx|ts|tsx|mts|cts)):(\d+)\s*$/, build: (m) => frame('node', m[1], undefined, m[2]) },
  // Python:  File "/srv/app/payments/client.py", line 42, in charge
  { re: /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/, build: (m) => frame('python', m[1], m[3], m[2]) },
  // Ruby:    /srv/app/lib/cart.rb:12:in `total'  |  from app/models/order.rb:3:in 'Order#total'
  //          # ./lib/cart.rb:12:in `total'  (RSpec's failure backtrace)
  { re: /^\s*(?:from\s+|#\s+)?((?:[A-Za-z]:)?[\w./\\-]+\.(?:rb|rake|erb)):(\d+):in [`']([^']+)'/, build: (m) => frame('ruby', m[1], rubyFn(m[3]), m[2]) },
  // Go:      /srv/app/internal/pager/pager.go:42 +0x1d  (the function is on the previous line)
  { re: /^\s*((?:\/|\w:)?[\w./@\\-]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/, build: (m) => frame('go', m[1], undefined, m[2]) },
  // PHP:     Uncaught X: message in /var/www/src/Cart.php:42   |   thrown in /var/www/src/Cart.php on line 42  |  in phar:///x.phar/src/Cart.php:42`
  { re: /\bin ((?:phar:\/\/|[A-Za-z]:)?[^\s:]+\.php)(?::| on line )(\d+)(?=[\s`'"),.;]|$)/, build: (m) => frame('php', m[1], undefined, m[2]) },
  // PHP:     #0 /var/www/src/Cart.php(42): Shop\Cart->total()
  { re: /^\s*#\d+\s+((?:[A-Za-z]:)?[^(\s]+\.php)\((\d+)\):\s*(?:[\w\\]+(?:->|::))?(\w+)?/, build: (m) => frame('php', m[1], m[3], m[2]) },
];

/** The frame a line holds, or undefined. */
export function parseFrameLine(line: string): StackFrame | undefined {
  // Next.js names bundler layers in parentheses: webpack-internal:///(rsc)/./src/x.ts.
  const plain = line.includes('webpack-internal:///(') ? line.replace(/webpack-internal:\/\/\/\([^)]*\)\//, 'webpack-internal:///') : line;
  for (const { re, build } of FRAME_PATTERNS) {
    const m = re.exec(plain);
    if (m) return build(m);
  }
  return undefined;
}

// Every frame of every event passes here: each rewrite runs only where its text can occur.
function cleanPath(file: string): string {
  let path = file.startsWith('file://') ? file.slice('file://'.length) : file;
  if (path.startsWith('webpack')) path = path.replace(/^webpack(?:-internal)?:\/\/\/?(?:[^/]*\/)?/, '');
  return path.includes('?') || path.includes('#') ? path.replace(/[?#].*$/, '') : path;
}

function frame(language: TraceLanguage, file: string | undefined, fn: string | undefined, line: string | undefined): StackFrame {
  const path = cleanPath(file ?? '');
  return { file: path, fn: fn || undefined, line: line ? Number(line) : undefined, inApp: !LIBRARY_PATH.test(path.includes('\\') ? path.replace(/\\/g, '/') : path), language };
}

function nodeFrame(file: string | undefined, fn: string | undefined, line: string | undefined): StackFrame | undefined {
  if (!file || file === 'native' || file === '<anonymous>') return undefined;
  const name = fn !== undefined && (fn.includes('[as ') || fn.startsWith('async')) ? fn.replace(/\s*\[as [^\]]+\]$/, '').replace(/^async\s+/, '') : fn;
  // A Rust backtrace prints its frames' locations the same way: `at ./src/main.rs:12:5`.
  return frame(file.endsWith('.rs') ? 'rust' : 'node', file, name, line);
}

function rubyFn(label: string | undefined): string | undefined {
  // "block (2 levels) in Cart#total" → "total"
  return label?.replace(/^.*\bin\s+/, '').replace(/^.*[#.]/, '') || undefined;
}

function javaFrame(qualifiedClass: string, fn: string | undefined, fileName: string, line: string | undefined): StackFrame {
  const pkg = qualifiedClass.split('.').slice(0, -1).join('/');
  return { file: pkg ? `${pkg}/${fileName}` : fileName, fn, line: line ? Number(line) : undefined, inApp: !LIBRARY_JAVA.test(qualifiedClass), language: 'java', module: qualifiedClass };
}

function dotnetFrame(type: string, fn: string | undefined, file: string | undefined, line: string | undefined): StackFrame {
  // Async state machines print as Shop.Cart.<Total>d__4.MoveNext: the method is inside the brackets.
  const asyncMethod = /<([^>]+)>d__\d+$/.exec(type)?.[1];
  const owner = (asyncMethod ? type.replace(/\.<[^>]+>d__\d+$/, '') : type).replace(/`\d+$/, '');
  // Without symbols the type's namespace is the best path there is: Shop.Checkout.Cart → Shop/Checkout/Cart.cs.
  const path = file ?? `${owner.replace(/\+.*$/, '').split('.').join('/')}.cs`;
  return { ...frame('dotnet', path, asyncMethod ?? fn, line), inApp: !LIBRARY_DOTNET.test(owner), module: owner };
}
