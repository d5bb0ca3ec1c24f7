/** The grouping decisions a Slack click may ask for; the use-cases go through the gateway. */
export interface GroupingCommands {
  openFromOverflow(click: { overflowIncidentId: string; fingerprint: string; userId: string }): Promise<{ ok: boolean; message: string }>;
  merge(input: { incidentId: string; intoIncidentId: string; userId: string }): Promise<{ ok: boolean; message: string }>;
  split(input: { incidentId: string; field: string; userId: string }): Promise<{ ok: boolean; message: string }>;
}
