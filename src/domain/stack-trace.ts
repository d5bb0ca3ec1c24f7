/**
 * Stack-trace parsing: the frames of a raw error text (see stack-frames.ts for the dialects),
 * grouped by the exception they belong to. Pure and tolerant: anything that is not a frame or an
 * exception line is ignored.
 *
 * Frames come out innermost first, root cause first: a Python traceback (printed oldest call
 * first) is reversed; in a chain the exception that started the failure leads — the deepest
 * `Caused by:` / `[cause]:`, the .NET inner exception (` ---> `), the first of Python's chained
 * tracebacks ("During handling of the above exception…", "The above exception was the direct
 * cause…") — and `Suppressed:` exceptions and Go's other goroutines come last.
 *
 * A log record's text is read with `recordHeader`: its first line is the record's message, which
 * the logged code (and whoever sent it the data) chose. That line may name the exception
 * (`request failed: TypeError: …`), never a frame: frames come only from the trace that follows.
 */
import { parseFrameLine, type StackFrame } from './stack-frames.js';

export type { StackFrame, TraceLanguage } from './stack-frames.js';

export interface TraceException {
  exceptionType: string;
  message?: string;
}

export interface TraceReadOptions {
  /** The first line is a log record's message: it may name the exception, it never supplies a frame. */
  recordHeader?: boolean;
}

export interface ParsedTrace {
  /**
   * The exception the failure was logged as: the first the text names (the outermost for JVM and
   * .NET traces), or the last of Python's chained tracebacks (Python prints the outermost last).
   */
  exceptionType?: string;
  /** The text after the exception type on its line, when there is one. */
  message?: string;
  /** The exception whose frames lead: where the failure started. */
  rootCause?: TraceException;
  /** Every exception of the chain, in the order frames come out. */
  exceptions: TraceException[];
  frames: StackFrame[];
}

const EXCEPTION_LINE =
  /^\s*(?:Caused by: |Exception in thread "[^"]*" |Uncaught |Unhandled exception\. |\[cause\]: |-+> )?((?:[A-Za-z_$][\w$]*(?:\.|::|\\))*[A-Z][\w$]*(?:Error|Exception|Panic|Fault|Failure|Exit|Interrupt))\b(?::\s*(.*))?/;
const RUBY_EXCEPTION = /:in [`'][^']+': (.*) \(([A-Z]\w*(?:::[A-Z]\w*)*)\)\s*$/;
const GO_PANIC = /^panic: (.*)$/;
/** A line that starts a new exception in a chain whose later entries are deeper causes. */
const CAUSE_LINE = /^\s*(?:Caused by: |\[cause\]: |\{ \[cause\]: |cause: )/;
/** .NET prints inner exceptions on the outer one's line, after " ---> ", their frames first. */
const DOTNET_INNER = / ---> /g;
const DOTNET_INNER_END = /^\s*--- End of inner exception stack trace ---/;
/** Python prints a new traceback for each exception of a chain; the first is the original. */
const PYTHON_TRACEBACK = /^\s*Traceback \(most recent call last\):/;
const SUPPRESSED_LINE = /^\s*Suppressed: /;
const GO_GOROUTINE = /^goroutine \d+ \[[^\]]*\]:\s*$/;

interface Section {
  frames: StackFrame[];
  kind: 'plain' | 'cause' | 'python' | 'suppressed';
  exception?: TraceException;
}

/** What one line contributes to a trace. */
interface LineInfo {
  /** The section the line starts, if any ('goroutine' starts one from the second goroutine on). */
  starts?: Section['kind'] | 'goroutine';
  /** The exception each ` ---> `-separated part of the line names (.NET inner exceptions follow the first). */
  parts: (TraceException | undefined)[];
  frame?: StackFrame;
  /** The Go function this line names for the frame on the next line. */
  goFunction?: string;
}

/** What every line that starts a section begins with; most lines fail it at their first letter. */
const SECTION_HINT = /^(?:\s*(?:Traceback|Caused by|\[cause|\{ \[cause|cause:|Suppressed|--- End)|goroutine )/;

function sectionStart(line: string): LineInfo['starts'] {
  if (!SECTION_HINT.test(line)) return undefined;
  if (PYTHON_TRACEBACK.test(line)) return 'python';
  if (CAUSE_LINE.test(line)) return 'cause';
  if (SUPPRESSED_LINE.test(line)) return 'suppressed';
  if (DOTNET_INNER_END.test(line)) return 'plain';
  return GO_GOROUTINE.test(line) ? 'goroutine' : undefined;
}

function lineInfo(line: string): LineInfo {
  const parts = line.includes(' ---> ') ? line.split(DOTNET_INNER).map(exceptionOf) : [exceptionOf(line)];
  const found = parseFrameLine(line);
  return { starts: sectionStart(line), parts, frame: found?.file ? found : undefined, goFunction: line.includes('(') ? goFunctionOf(line.trim()) : undefined };
}

/**
 * `request failed: TypeError: Cannot read …`: an exception named after a `: ` or `] ` inside a
 * record's message. Read only where the whole line is not already an exception line.
 */
const EMBEDDED_EXCEPTION = /(?::|\])\s+((?:[A-Za-z_$][\w$]*(?:\.|::))*[A-Z][\w$]*(?:Error|Exception|Panic|Fault|Failure))(?::\s*(.*))?$/;

/** A record's message line: its exception (as the line states it or embedded), never its frame. */
function headerInfo(line: string): LineInfo {
  const parts = line.includes(' ---> ') ? line.split(DOTNET_INNER).map(exceptionOf) : [exceptionOf(line)];
  if (!parts.some(Boolean)) {
    const m = EMBEDDED_EXCEPTION.exec(line);
    if (m?.[1]) return { starts: sectionStart(line), parts: [{ exceptionType: m[1].replace(/^.*(?:[.:])/, ''), message: m[2]?.trim() || undefined }] };
  }
  return { starts: sectionStart(line), parts };
}

/** The lines a trace is read from. */
function traceLines(raw: string): string[] {
  // A trace stored as one JSON-escaped line is split on the escapes; real newlines win otherwise
  // (Windows paths such as C:\src\new\x.cs contain a literal backslash-n).
  const split = raw.split(/\r?\n/, 601);
  if (split.length === 1) return raw.split(/\\n/, 600);
  return split.length > 600 ? split.slice(0, 600) : split;
}

const MAX_LINE = 2_000;
/**
 * A frame line's closing `:line` or `:line:column` (and its parenthesis), the part a redeploy
 * moves: keyed as `:0`, or `:0:` when a column follows, so the two shapes stay apart.
 */
const TRAILING_POSITION = /:\d+(?:(:)\d+)?(\)?\s*)$/;

/**
 * A key two texts share when their traces name the same exceptions and the same frames (file,
 * function, in-app or not) in the same structure, and differ at most in line and column numbers
 * and in messages: the first line, every exception line and every line without a closing
 * position are keyed by what they contribute (the fields the parser reads of them, messages and
 * line numbers left out), every other line by its text with its closing position zeroed. Every
 * frame pattern reads a closing position as digits of any length and nothing else depends on
 * them, so texts with one key parse to traces equal but for line numbers and messages.
 */
export function traceShapeKey(raw: string, options: TraceReadOptions = {}): string {
  const lines = traceLines(raw);
  const head = lines[0] ?? '';
  const info = options.recordHeader ? headerInfo(head.slice(0, MAX_LINE)) : head.length > MAX_LINE ? undefined : lineInfo(head);
  const parts = [contribution(info)];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    // A line too long to be read stays one in the key.
    if (line.length > MAX_LINE) parts.push('\u0002');
    // A frame line by its text; an exception line (a JVM or Node trace repeats the event's
    // message there) and any line without a closing position by what it contributes.
    else {
      const position = TRAILING_POSITION.exec(line);
      if (position && !EXCEPTION_LINE.test(line)) parts.push(`${line.slice(0, position.index)}:0${position[1] ?? ''}${position[2] ?? ''}`);
      else parts.push(`\u0001${contribution(lineInfo(line))}`);
    }
  }
  return parts.join('\n');
}

/** What a line gives a trace, but for messages and line numbers: the fields `parseStackTrace` reads. */
function contribution(info: LineInfo | undefined): string {
  const frame = info?.frame;
  return JSON.stringify(info && [info.starts, info.parts.map((p) => p?.exceptionType ?? null), frame && [frame.file, frame.fn ?? null, frame.inApp, frame.language ?? null, frame.module ?? null], info.goFunction ?? null]);
}

/** Parses the exception types and frames out of a raw error text; tolerant of anything. */
export function parseStackTrace(raw: string, options: TraceReadOptions = {}): ParsedTrace {
  const lines = traceLines(raw);
  let first: TraceException | undefined;
  const sections: Section[] = [{ frames: [], kind: 'plain' }];
  let goFunction: string | undefined;
  let goroutines = 0;
  for (const [n, line] of lines.entries()) {
    const header = n === 0 && options.recordHeader === true;
    // A message longer than a line is read for its exception in its first MAX_LINE characters.
    if (line.length > MAX_LINE && !header) continue;
    const info = header ? headerInfo(line.slice(0, MAX_LINE)) : lineInfo(line);
    if (info.starts === 'goroutine') {
      if (goroutines++ > 0) startSection(sections, 'suppressed');
    } else if (info.starts) startSection(sections, info.starts);
    for (const [i, found] of info.parts.entries()) {
      if (i > 0) startSection(sections, 'cause');
      const current = sections[sections.length - 1]!;
      if (found) {
        first ??= found;
        // Python names the exception after its frames; everyone else before.
        current.exception ??= found;
      }
    }
    const f = info.frame;
    if (f) sections[sections.length - 1]!.frames.push(f.fn || !goFunction ? f : { ...f, fn: goFunction.replace(/^.*\./, '') });
    goFunction = info.goFunction;
  }
  const ordered = orderSections(sections);
  const exceptions = ordered.flatMap((s) => (s.exception ? [s.exception] : []));
  const root = ordered.find((s) => s.frames.length > 0)?.exception ?? exceptions[0];
  // Chained Python tracebacks print the cause first and the exception that was logged last.
  const python = sections.filter((s) => s.kind === 'python' && s.exception);
  const logged = python.length > 1 ? python[python.length - 1]!.exception : first;
  return { exceptionType: logged?.exceptionType, message: logged?.message, rootCause: root, exceptions, frames: ordered.flatMap((s) => s.frames) };
}

/**
 * `github.com/acme/shop/internal/orders.(*Pager).Page(0xc000012345, 0x0)`: the function a Go
 * frame's next line belongs to. Go prints arguments last and never nested, so the last `(` opens
 * them; scanning by hand keeps this linear on hostile lines.
 */
function goFunctionOf(line: string): string | undefined {
  if (!line.endsWith(')')) return undefined;
  const open = line.lastIndexOf('(');
  if (open <= 0) return undefined;
  const name = line.slice(0, open);
  return name.includes('.') && /^[\w./@*()$-]+$/.test(name) ? name : undefined;
}

function startSection(sections: Section[], kind: Section['kind']): void {
  const last = sections[sections.length - 1];
  // A header right at the start reuses the empty first section.
  if (last && last.frames.length === 0 && last.kind === 'plain' && !last.exception) last.kind = kind;
  else sections.push({ frames: [], kind });
}

function exceptionOf(line: string): TraceException | undefined {
  const ruby = RUBY_EXCEPTION.exec(line);
  if (ruby?.[2]) return { exceptionType: ruby[2].replace(/^.*::/, ''), message: ruby[1] };
  const m = EXCEPTION_LINE.exec(line);
  if (m?.[1]) return { exceptionType: m[1].replace(/^.*(?:[.:]|\\)/, ''), message: m[2]?.trim() || undefined };
  const go = GO_PANIC.exec(line);
  if (go) return { exceptionType: 'panic', message: go[1] };
  return undefined;
}

function orderSections(sections: Section[]): Section[] {
  const lead: Section[] = [];
  const tail: Section[] = [];
  for (const section of sections) {
    if (section.kind === 'python') section.frames.reverse();
    if (section.kind === 'cause') lead.unshift(section);
    else if (section.kind === 'suppressed') tail.push(section);
    else lead.push(section);
  }
  // Deeper causes were unshifted ahead of the outer exception; suppressed ones come last.
  return [...lead, ...tail];
}
