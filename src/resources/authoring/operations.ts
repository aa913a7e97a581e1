import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { API_VERSION, AUTHORING_GUIDE_VERSION, STABLE_SINCE } from '../../core/versions.ts';
import { authoringExamples } from './examples.ts';

// Read once at start: the playbook ships with the code (in docs/, where people read it too).
const playbook = readFileSync(new URL('../../../docs/authoring-playbook.md', import.meta.url), 'utf8');

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
    'Returns the markdown playbook for assistants: the workflow from an empty draft to publish, the platform rules, ' +
    'the limits and what to do about each error code. Read it once per session before editing.',
  input: z.strictObject({}),
  output: z.object({ version: z.string(), apiVersion: z.string(), markdown: z.string() }),
  async handler() {
    return { version: AUTHORING_GUIDE_VERSION, apiVersion: API_VERSION, markdown: playbook };
  },
});

export const authoringOperations = [getAuthoringGuide];
