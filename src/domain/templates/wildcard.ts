/** What a variable part of a message becomes in its masked form and in templates. */
export const WILDCARD = '<*>';
