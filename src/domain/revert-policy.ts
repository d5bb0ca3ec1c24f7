/**
 * When Medic may propose, with no model, to revert a suspect commit's change. Pure.
 *
 * The suspect is chosen from the failing stack, which a log line's author controls in part; a
 * revert that undoes an access check, a security change or a fix is worse than the error it
 * answers. So a revert is never offered when it touches access-control code or a protected
 * path, when the commit's message says it fixes, secures or restricts something, or when the
 * lines it would take out are access checks. The operator's model-backed fix path is unaffected.
 */

export interface RevertedCommit {
  sha: string;
  subject: string;
  /** The whole message, when known. */
  message?: string;
  /** The paths the revert changes (the reverted file, and its name in that commit). */
  files: readonly string[];
  /** The lines the reverted hunks added: what the revert takes out. */
  addedLines: readonly string[];
}

/** A path segment or file stem naming access control. */
const ACCESS_PATH = /(?:^|[/_.-])(?:auth[a-z]*|authn|authz|permissions?|acls?|rbac|abac|guards?|polic(?:y|ies)|roles?|access|login|logout|oauth2?|oidc|saml|jwt|sessions?|security|csrf|credentials?|passwords?|crypto|sso)(?=[/_.-]|$)/i;
/** Identifiers of access checks in code: predicates and guards, not the nouns they guard. */
const ACCESS_CODE = /\b(?:is_?(?:authori[sz]ed|authenticated|admin\w*|allowed|permitted|owner)|require_?(?:admin|role|auth\w*|login|user|permission|scope)\w*|ensure_?(?:admin|role|auth\w*|permission)\w*|has_?(?:role|permission|access|scope|privilege)\w*|can_?(?:access|edit|read|write|delete|view|manage)\w*|check_?(?:access|auth\w*|permission|role|scope)\w*|verify_?(?:token|signature|jwt|password|session)\w*|csrf\w*|rbac|acl|permissions?|privileges?)\b/i;
/** What a commit message says when the change secures something. */
const SECURITY_MESSAGE = /\b(?:security|secur(?:e|es|ed|ing)|authn|authz|authenticat\w*|permissions?|privileges?|access[ -]control|rbac|acl|roles?|admin\w*|csrf|xss|ssrf|injection|sanitiz\w*|vulnerab\w*|cve-\d{4}-\d+|exploit\w*|harden\w*)\b/i;
/** What a commit message says when the change corrects something. */
const FIX_MESSAGE = /\b(?:fix(?:es|ed|ing)?|bug ?fix|hotfix|regression|correct(?:s|ed|ing)?|prevent(?:s|ed|ing)?|resolv(?:e|es|ed|ing)|repair(?:s|ed)?)\b/i;

/** Why the commit's change may not be reverted without a person's fix, or undefined when it may. */
export function revertRefusal(commit: RevertedCommit, protectedReason: (file: string) => string | undefined): string | undefined {
  const short = commit.sha.slice(0, 8);
  const guarded = commit.files.map(protectedReason).find(Boolean);
  if (guarded) return `${short} changes a protected file (${guarded})`;
  const accessFile = commit.files.find((f) => ACCESS_PATH.test(f));
  if (accessFile) return `${short} changes access-control code (${accessFile}); Medic never reverts it on its own`;
  const message = commit.message ?? commit.subject;
  const security = SECURITY_MESSAGE.exec(message);
  if (security) return `${short}'s message speaks of a security change ("${security[0]}"); Medic never reverts it on its own`;
  const fix = FIX_MESSAGE.exec(message);
  if (fix) return `${short}'s message calls it a fix ("${fix[0]}"): reverting it would bring that bug back`;
  const check = commit.addedLines.find((line) => ACCESS_CODE.test(line));
  if (check) return `reverting ${short} would remove an access check (${check.trim().slice(0, 80)})`;
  return undefined;
}

/** The paths besides `file` the commit changed: behaviour the revert leaves as it is. */
export function otherFilesOf(commit: { files: readonly string[] }, file: string): string[] {
  return commit.files.filter((f) => f !== file);
}
