/**
 * Outbox prefix and Interaction platform of Teams: the Bot Framework's own channel id for it. A file
 * of its own so that the face names it without loading the Bot Framework.
 */
export const TEAMS_PLATFORM = 'msteams';
