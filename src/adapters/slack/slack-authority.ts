import type { Authority, Permissions } from '../../ports/authority.js';
import { callSlack } from './slack-errors.js';
import type { SlackWebClient } from './web-client.js';

export interface SlackAuthorityOptions {
  /** Slack user ids (U…) allowed to approve, from MEDIC_APPROVERS. */
  approvers: readonly string[];
  /** A Slack user group id (S…) whose members may also approve. */
  approverGroup?: string;
  /** User ids allowed to confirm DESTRUCTIVE actions (step-up); none by default. */
  elevated?: readonly string[];
  client: SlackWebClient;
  /** How long the group's member list is trusted; membership changes take effect after it. */
  cacheMs: number;
  now?: () => number;
}

/**
 * Resolves permissions from a verified Slack user id: configured ids, or membership of the
 * approver user group (usergroups.users.list, cached briefly). Nothing from a payload is consulted.
 * If the group cannot be read and the id is not listed, resolution throws (transient) rather than
 * silently refusing: the caller tells the user to retry instead of "you are not an approver".
 */
export function createSlackAuthority(options: SlackAuthorityOptions): Authority {
  const now = options.now ?? Date.now;
  const listed = new Set(options.approvers);
  const elevated = new Set(options.elevated ?? []);
  let cache: { members: Set<string>; at: number } | undefined;
  let loading: Promise<Set<string>> | undefined;

  async function groupMembers(group: string): Promise<Set<string>> {
    if (cache && now() - cache.at < options.cacheMs) return cache.members;
    loading ??= callSlack('usergroups.users.list', group, () => options.client.usergroups.users.list({ usergroup: group }))
      .then((result) => {
        const members = new Set(result.users ?? []);
        cache = { members, at: now() };
        return members;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  return {
    async resolve(userId: string): Promise<Permissions> {
      const isElevated = elevated.has(userId);
      if (listed.has(userId) || isElevated) return { approver: true, elevated: isElevated };
      if (!options.approverGroup) return { approver: false, elevated: false };
      const members = await groupMembers(options.approverGroup);
      return { approver: members.has(userId), elevated: false };
    },
  };
}
