/** What `doctor` and `/readyz` learn about one configured service. */
export interface ServiceCheck {
  name: string;
  /** Which adapter is in use, e.g. "file (embedded)" or "splunk https://…:8089". */
  adapter: string;
  ok: boolean;
  detail: string;
  /** The service is fine but not up now (the sandbox outside `npm start`): nothing further to ask it. */
  idle?: boolean;
}

export interface Checkable {
  check(): Promise<ServiceCheck>;
}
