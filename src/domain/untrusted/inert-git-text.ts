/**
 * Text from logs, git or the model, made inert for a commit message or a pull request: GitHub and
 * CI read live instructions in both. A reference (`#7`, `org/repo#7`, `GH-7`, an issue URL) after
 * `Fixes`/`Closes`/`Resolves` closes that issue on merge and anywhere else links it; `[skip ci]`,
 * `[ci skip]`, `***NO_CI***` and a `skip-checks: true` trailer turn CI off for the commit;
 * `@name` notifies a person or a team; `[text](url)` hides a link behind words and `![](url)`
 * loads an image from anywhere. Each is broken with a zero-width space at the one place its
 * syntax needs two characters to touch, so the text reads the same and means nothing. Runs last,
 * after redaction (which strips invisible characters); applying it twice changes nothing more.
 */
export const INERT_MARK = '\u200b';

/** Where `inertGitText` puts its mark: after these characters (`@`, `#`, `-`, `[`, `]`, `!`, `:`, `O`, `p`). */
export const INERT_AFTER = /[@#\-[\]!:Op]\u200b/g;

const MENTION = /(?<![\w.+-])@(?=[A-Za-z0-9_-])/g;
const ISSUE_REFERENCE = /#(?=\d)|(?<![\w-])(GH-)(?=\d)/gi;
// Any scheme's URL: issue and pull URLs are references too, and a bare URL is a link.
const URL_SCHEME = /(?<=[a-z0-9])(:)(?=\/\/)/gi;
// `[skip ci]`, `[ci skip]`, `[no ci]`, `[skip actions]`, `[skip azurepipelines]`, `[travis skip]`…
const BRACKET = /\[([^[\]\n]{1,40})\]/g;
const CI_WORDS = /\bskip\b|\bno[ _-]?ci\b/i;
const NO_CI = /(NO)(?=_CI)/gi;
const SKIP_CHECKS = /(skip)(?=-checks[ \t]*:)/gi;
// `](`, `][` and `]:` join a link's text to its target; `![` starts an image.
const LINK_JOIN = /\](?=[([:])/g;
const IMAGE = /!(?=\[)/g;

export function inertGitText(text: string): string {
  return text
    .replace(MENTION, `@${INERT_MARK}`)
    .replace(ISSUE_REFERENCE, (match) => `${match}${INERT_MARK}`)
    .replace(URL_SCHEME, `:${INERT_MARK}`)
    .replace(BRACKET, (match, inner: string) => (!inner.startsWith(INERT_MARK) && CI_WORDS.test(inner) ? `[${INERT_MARK}${inner}]` : match))
    .replace(NO_CI, `$1${INERT_MARK}`)
    .replace(SKIP_CHECKS, `$1${INERT_MARK}`)
    .replace(LINK_JOIN, `]${INERT_MARK}`)
    .replace(IMAGE, `!${INERT_MARK}`);
}
