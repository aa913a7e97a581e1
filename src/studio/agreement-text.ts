/**
 * The first version of the creator agreement, written into agreement_versions by the studio's
 * migration. Later versions are published by the operator (`npm run admin -- agreement publish`).
 */
export const FIRST_AGREEMENT = {
  version: 1,
  title: 'Creator agreement',
  body: `You sell your guides through this service. By accepting this agreement you confirm that:

- You wrote the guide's text, or have the right to publish it, and you hold or have licensed every photo you upload, with its credit given.
- The facts in your guides (opening hours, fees, rules, routes) are checked by you to the best of your knowledge, and you keep them current.
- You set your guides' prices; buyers pay the price shown on the sales page when they buy.
- Your guides may be shown in the store when you make them visible there, and are reviewed before they appear.
- You may stop selling a guide at any time by archiving it; buyers who bought it keep access to what they bought.
- AI assistants you connect act on your behalf with the permissions you give their keys or authorizations: you remain responsible for what they publish.

When this agreement changes, you accept the new version before you change a price or publish again.`,
} as const;
