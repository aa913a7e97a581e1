import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { addressesOf } from '../../core/addresses.ts';
import { defineOperation } from '../../core/operation.ts';
import { API_VERSION, AUTHORING_GUIDE_VERSION, STABLE_SINCE } from '../../core/versions.ts';
import { authoringExamples } from './examples.ts';
import { parsePlaybook, playbookAnswers, playbookMarkdown, topicNames } from './playbook.ts';

// Read once at start: the playbook ships with the code (in docs/, where people read it too).
const playbook = parsePlaybook(readFileSync(new URL('../../../docs/authoring-playbook.md', import.meta.url), 'utf8'));

export const getAuthoringGuide = defineOperation({
  name: 'get_authoring_guide',
  title: 'Get the authoring playbook',
  method: 'GET',
  path: '/authoring-guide',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: authoringExamples.get_authoring_guide,
  description:
    'Returns the markdown playbook for assistants. Without topic: the overview (platform rules, the addresses to use, ' +
    'how lists page, the topics); read it once per session before editing. With topic: one part of the work, its ' +
    'rules and limits (errors: what to do about each error code; all: the whole playbook).',
  input: z.strictObject({
    topic: z
      .enum(playbookAnswers)
      .optional()
      .describe('overview (default), one part of the work, or all for the whole playbook'),
  }),
  output: z.object({
    version: z.string(),
    apiVersion: z.string(),
    topic: z.enum(playbookAnswers),
    topics: z.array(z.enum(topicNames)).describe('What `topic` can ask for'),
    markdown: z.string(),
  }),
  async handler(input, ctx) {
    const topic = input.topic ?? 'overview';
    return {
      version: AUTHORING_GUIDE_VERSION,
      apiVersion: API_VERSION,
      topic,
      topics: topicNames,
      markdown: playbookMarkdown(playbook, topic, addressesOf(ctx.urls.publicUrl)),
    };
  },
});

export const authoringOperations = [getAuthoringGuide];
