/** The since-marker of the files operations (issue 30). */
export const SINCE_FILES = '2026-11-27';
