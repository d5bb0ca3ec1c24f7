import type { Authority, Permissions } from '../../ports/authority.js';

/** Resolves a Slack user group's members (`usergroups.users.list`, see adapters/slack/slack-user-groups.ts). */
export interface UserGroupResolver {
  resolveMembers(groupId: string): Promise<string[]>;
}

export interface ConfiguredAuthorityOptions {
  /** User ids, or `group:<id>` for a Slack user group (MEDIC_APPROVERS). */
  approvers: readonly string[];
  /** Elevated approvers may confirm step-ups; they are approvers too (MEDIC_ELEVATED_APPROVERS). */
  elevatedApprovers: readonly string[];
  /** May read every incident, wherever they ask (MEDIC_READERS); approvers read too. */
  readers?: readonly string[];
  userGroups?: UserGroupResolver;
  /** Group membership is cached this long, so a busy gateway does not hammer Slack. */
  groupCacheMs?: number;
  now?: () => number;
}

const GROUP = 'group:';

/** Whether a user is on a list of user ids and `group:<id>` entries; groups cached, failing closed. */
export type ListMembership = (list: readonly string[], userId: string) => Promise<boolean>;

export function createListMembership(options: Pick<ConfiguredAuthorityOptions, 'userGroups' | 'groupCacheMs' | 'now'>): ListMembership {
  const now = options.now ?? Date.now;
  const cacheMs = options.groupCacheMs ?? 60_000;
  const cache = new Map<string, { at: number; members: Set<string> }>();

  async function members(groupId: string): Promise<Set<string>> {
    const hit = cache.get(groupId);
    if (hit && now() - hit.at < cacheMs) return hit.members;
    if (!options.userGroups) return new Set();
    try {
      const resolved = new Set(await options.userGroups.resolveMembers(groupId));
      cache.set(groupId, { at: now(), members: resolved });
      return resolved;
    } catch {
      // Fail closed: a stale list could keep someone who was just removed from the group.
      return new Set();
    }
  }

  return async (list, userId) => {
    for (const entry of list) {
      if (entry.startsWith(GROUP) ? (await members(entry.slice(GROUP.length))).has(userId) : entry === userId) return true;
    }
    return false;
  };
}

/** An id that can never hold a permission: empty, or posing as a group. */
export const isUnusableId = (userId: string) => userId.trim() === '' || userId.startsWith(GROUP);

/**
 * Authority from configuration: the only input is a verified user id, so nothing in a payload,
 * a button value or a model's output can widen it. A group that cannot be resolved grants
 * nothing (fail closed).
 */
export function createConfiguredAuthority(options: ConfiguredAuthorityOptions): Authority {
  const listed = createListMembership(options);
  return {
    async resolve(userId): Promise<Permissions> {
      if (isUnusableId(userId)) return { approver: false, elevated: false, reader: false };
      const elevated = await listed(options.elevatedApprovers, userId);
      const approver = elevated || (await listed(options.approvers, userId));
      return { approver, elevated, reader: approver || (await listed(options.readers ?? [], userId)) };
    },
  };
}
