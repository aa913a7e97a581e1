import type { Resource } from '../../core/resource.ts';
import { authoringOperations } from './authoring.operations.ts';

export const authoringResource: Resource = {
  tag: { name: 'authoring', description: 'The playbook assistants read before editing' },
  operations: authoringOperations,
};
