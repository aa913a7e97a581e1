import type { Resource } from '../../core/resource.ts';
import { publishingOperations } from './operations.ts';

export const publishingResource: Resource = { operations: publishingOperations };
