/** What operators may change about how events are grouped into incidents, from Slack, through the gateway. */
export interface IncidentGrouping extends IncidentGroupingDecisions {
  /**
   * Gives a family counted into an overflow incident its own incident now (analysed like any
   * other). Idempotent: a family already out of the overflow answers with its open incident.
   */
  openFromOverflow(input: { overflowIncidentId: string; fingerprint: string }): Promise<{ incidentId: string; opened: boolean }>;
  /** The service of a family counted into an overflow incident, from Medic's own record of it; undefined when it holds no such family. */
  overflowFamilyService(input: { overflowIncidentId: string; fingerprint: string }): Promise<string | undefined>;
}

export interface IncidentGroupingDecisions {
  /**
   * Folds one open incident into another (an approver's Merge): its events and count move, its
   * card points to the survivor, and its fingerprint's future events join the survivor.
   */
  mergeIncidents(input: { incidentId: string; intoIncidentId: string }): Promise<{ incidentId: string }>;
  /** Splits an incident's family by an event field (an approver's Split), for every future event. */
  splitFamily(input: { incidentId: string; field: string }): Promise<{ family: string; field: string }>;
}
