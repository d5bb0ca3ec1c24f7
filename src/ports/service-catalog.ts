import type { Catalog, CatalogProblem, ServiceRoute } from '../domain/catalog/catalog.js';

/** What the last look at the catalog's files found. */
export interface CatalogStatus {
  /** False while the files hold problems: the last good catalog stays in force. */
  ok: boolean;
  /** Where the catalog in force came from, and when it was loaded. */
  sources: string[];
  loadedAt: string;
  /** The problems of the files as they are now (empty when ok). */
  problems: CatalogProblem[];
}

/** The service catalog in force: routes a log's service name to its channel, repository and people. */
export interface ServiceCatalog {
  current(): Catalog;
  route(logName: string): ServiceRoute;
  status(): CatalogStatus;
  /** Reads the files again when they changed; a broken change keeps the catalog in force. */
  refresh(): Promise<{ changed: boolean; status: CatalogStatus }>;
}
