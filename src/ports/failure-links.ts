/**
 * One holder per failure signature: the first open incident analysed for it. The second service's
 * incident of the same failure links to the holder instead of proposing a second fix.
 */
export interface FailureLinks {
  /**
   * Makes `incidentId` the signature's holder when there is none (or the holder is `replacing`, a
   * holder found closed), and answers the holder. Atomic and idempotent: the holder claiming again
   * answers itself, anyone else gets the same holder every time.
   */
  claim(signature: string, incidentId: string, replacing?: string): Promise<string>;
}
