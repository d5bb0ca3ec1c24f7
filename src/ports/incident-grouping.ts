/** What operators may change about how events are grouped into incidents, from Slack, through the gateway. */
export interface IncidentGrouping {
  /**
   * Gives a family counted into an overflow incident its own incident now (analysed like any
   * other). Idempotent: a family already out of the overflow answers with its open incident.
   */
  openFromOverflow(input: { overflowIncidentId: string; fingerprint: string }): Promise<{ incidentId: string; opened: boolean }>;
}
