/** The people in the sandbox's workspace: one approver and one who is not. */
export interface SandboxUser {
  id: string;
  name: string;
  label: string;
}

export const SANDBOX_TEAM = { id: 'T0SANDBOX', domain: 'medic-sandbox' } as const;
export const SANDBOX_BOT = { userId: 'U0MEDICBOT', botId: 'B0MEDICBOT', appId: 'A0MEDIC', name: 'medic' } as const;
export const SANDBOX_APPROVER_GROUP = 'S0APPROVERS';

export const SANDBOX_USERS: readonly SandboxUser[] = [
  { id: 'U0APPROVER', name: 'alice', label: 'Alice (approver)' },
  { id: 'U0VIEWER', name: 'bob', label: 'Bob (not an approver)' },
  { id: 'U0ELEVATED', name: 'carol', label: 'Carol (elevated approver)' },
];

/** Members of the sandbox's approver user group (usergroups.users.list). */
export const SANDBOX_APPROVERS: readonly string[] = ['U0APPROVER'];

/** The sandbox's elevated approver, who may confirm a DESTRUCTIVE step-up as the second person. */
export const SANDBOX_ELEVATED: readonly string[] = ['U0ELEVATED'];
