/** The API version of the specification this service implements. */
export const API_VERSION = '2026-09-30.2';
/** The authoring playbook has a version of its own. */
export const AUTHORING_GUIDE_VERSION = '2026-09-30.4';
/** The since-marker of the operations the specification first published. */
export const STABLE_SINCE = '2026-09-17';
/** The since-marker of the operations the 2026-09-30 revision added (set_area, convert_property, list_stale_notices). */
export const SINCE_2026_09_30 = '2026-09-30';
