import type { Resource } from '../../core/resource.ts';
import { authoringOperations } from './operations.ts';

export const authoringResource: Resource = { operations: authoringOperations };
