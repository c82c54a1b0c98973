/**
 * Idle GPUs that no team owns (untagged, or a tag no team matches) still cost money, so they are
 * reported like a team's, to the channels `gpu.unowned` names and to the console. This id can
 * never be a team's: team ids start with a letter or digit.
 */
export const UNOWNED_ID = '_unowned';
export const UNOWNED_NAME = 'Unowned GPUs';
