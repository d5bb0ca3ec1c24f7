import type { UserGroupResolver } from '../../gateway/authority/authority.js';
import { callSlack } from './slack-errors.js';
import type { SlackWebClient } from './web-client.js';

/**
 * Slack user groups for the gateway's authority (`group:<id>` approver entries), read with
 * usergroups.users.list. The authority caches the members briefly and fails closed when the
 * group cannot be read.
 */
export function createSlackUserGroups(client: SlackWebClient): UserGroupResolver {
  return {
    async resolveMembers(groupId) {
      const result = await callSlack('usergroups.users.list', groupId, () => client.usergroups.users.list({ usergroup: groupId }));
      return result.users ?? [];
    },
  };
}
