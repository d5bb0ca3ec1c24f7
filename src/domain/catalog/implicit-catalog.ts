import type { Catalog } from './catalog.js';

export const IMPLICIT_SERVICE = 'default';

export interface SingleServiceSettings {
  /** MEDIC_SLACK_CHANNEL */
  channel: string;
  /** MEDIC_REPO_REMOTE; absent: the sample remote seeded from `sample-service`. */
  remote?: string;
  /** MEDIC_REPO_BRANCH, or the branch the remote's HEAD names */
  branch: string;
  /** GITHUB_REPOSITORY */
  github?: string;
}

/**
 * Pure: the catalog the single-service variables always described — one service that every log
 * name routes to, one repository, one channel. Its approvers stay global (MEDIC_APPROVERS and
 * friends are every service's approvers), so nothing about authority changes either.
 */
export function implicitCatalog(settings: SingleServiceSettings): Catalog {
  return {
    services: [{
      name: IMPLICIT_SERVICE, aliases: [], repository: IMPLICIT_SERVICE, path: '', channel: settings.channel.replace(/^#/, ''),
      approvers: [], elevatedApprovers: [], readers: [], minSeverity: 'debug', splunk: {},
    }],
    repositories: [{
      id: IMPLICIT_SERVICE, branch: settings.branch,
      ...(settings.remote ? { remote: settings.remote } : { seedFrom: 'sample-service' }),
      ...(settings.github ? { github: settings.github } : {}),
    }],
    defaultChannel: settings.channel.replace(/^#/, ''),
    unknownRoutesTo: IMPLICIT_SERVICE,
    sources: ['MEDIC_SLACK_CHANNEL, MEDIC_REPO_REMOTE, MEDIC_REPO_BRANCH, GITHUB_REPOSITORY'],
  };
}
