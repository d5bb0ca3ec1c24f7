import { z } from 'zod';
import { revealInvisible } from '../domain/untrusted/invisible.js';

/** Action ids the Slack listeners route on; the presenter and the listeners share them. */
export const ActionId = {
  Approve: 'medic_approve',
  Reject: 'medic_reject',
  Feedback: 'medic_feedback',
  RunAction: 'medic_action_run',
  RequestStepUp: 'medic_action_step_up',
  ConfirmStepUp: 'medic_action_confirm',
  Details: 'medic_details',
  RerunConfirm: 'medic_rerun_confirm',
} as const;

/** What a Re-run anyway button carries: the incident and the reason typed with `/medic fix`. */
export const RerunValue = z.object({ incidentId: z.string().min(1).max(200), reason: z.string().max(1_000).optional() });
export type RerunValue = z.infer<typeof RerunValue>;

/** What a View details button carries: only which incident. */
export const DetailsValue = z.object({ incidentId: z.string().min(1).max(200) });
export type DetailsValue = z.infer<typeof DetailsValue>;

export const StepUpModal = { callbackId: 'medic_step_up_confirm', blockId: 'target', actionId: 'target_input' } as const;

/**
 * What a Run or Request step-up button carries: which incident and which proposed intent, by
 * hash. The intent itself is looked up again among those stored for the incident.
 */
export const ActionValue = z.object({ incidentId: z.string().min(1).max(200), tool: z.string().min(1).max(100), argsHash: z.string().min(1).max(128) });
export type ActionValue = z.infer<typeof ActionValue>;

/** The confirm button of a step-up names the challenge; its token stays on the server. */
export const StepUpValue = z.object({ incidentId: z.string().min(1).max(200), challengeId: z.string().min(1).max(128) });
export type StepUpValue = z.infer<typeof StepUpValue>;

export const RejectModal = { callbackId: 'medic_reject_reason', blockId: 'reason', actionId: 'reason_input' } as const;

/**
 * What an Approve/Reject button carries: only which incident and which proposal. Who may approve
 * is decided on the server from the verified user id, never from here.
 */
export const DecisionValue = z.object({ incidentId: z.string().min(1).max(200), proposalHash: z.string().min(1).max(128) });
export type DecisionValue = z.infer<typeof DecisionValue>;

export const FeedbackValue = z.object({
  incidentId: z.string().min(1).max(200),
  target: z.enum(['rca', 'fix']),
  vote: z.enum(['up', 'down']),
});
export type FeedbackValue = z.infer<typeof FeedbackValue>;

/** Parses a button value; undefined for anything that is not ours (a forged or stale payload). */
export function parseValue<T>(schema: z.ZodType<T>, value: string | undefined): T | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function button(actionId: string, text: string, value: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text, emoji: true }, value: JSON.stringify(value), ...extra };
}

export function detailsButton(incidentId: string): Record<string, unknown> {
  return button(ActionId.Details, 'View details', { incidentId });
}

/**
 * Approve, Reject and View details in one row near the top of the card. The confirm dialog says
 * where the whole diff was shown: on the card, or in the thread when it is too long for a card.
 * A proposal whose check failed (`approvable: false`) gets Reject and View details only. `more`
 * (the feedback buttons) follows in the same row.
 */
export function presentDecisionButtons(value: DecisionValue, fix: { file: string; lines: number; wholeOnCard: boolean; approvable?: boolean }, more: readonly Record<string, unknown>[] = []): Record<string, unknown> {
  const where = fix.wholeOnCard ? 'shown on the card' : "posted whole in this card's thread";
  const confirm = {
    title: { type: 'plain_text', text: 'Approve this fix?' },
    // Plain text: a path is shown as it is, never parsed for mentions, links or code spans.
    text: { type: 'plain_text', text: `Medic will push a branch changing ${revealInvisible(fix.file).slice(0, 200)} with exactly the ${fix.lines}-line diff ${where}, and open a draft PR when a code host is configured.` },
    confirm: { type: 'plain_text', text: 'Approve' },
    deny: { type: 'plain_text', text: 'Cancel' },
  };
  return {
    type: 'actions',
    block_id: 'medic_decision',
    elements: [
      ...(fix.approvable === false ? [] : [button(ActionId.Approve, 'Approve', value, { style: 'primary', confirm })]),
      button(ActionId.Reject, 'Reject', value, { style: 'danger' }),
      detailsButton(value.incidentId),
      ...more,
    ],
  };
}

/** 👍 / 👎 on the root cause, and on the fix once there is one: a row of their own, or their elements beside other buttons. */
export function presentFeedbackButtons(incidentId: string, targets: readonly ('rca' | 'fix')[]): Record<string, unknown> {
  return {
    type: 'actions',
    block_id: 'medic_feedback',
    elements: targets.flatMap((target) => (['up', 'down'] as const).map((vote) =>
      // Distinct action ids per button: Slack requires them unique within a block.
      button(`${ActionId.Feedback}_${target}_${vote}`, `${vote === 'up' ? '👍' : '👎'} ${target === 'rca' ? 'root cause' : 'fix'}`, { incidentId, target, vote }),
    )),
  };
}
