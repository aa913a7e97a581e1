import type { AnyOperation } from './operation.ts';
import type { Resource, ResourceTag } from './resource.ts';

/** Every operation by name, with the tag of the resource that declares it; refuses two with one name or one route. */
export class Registry {
  readonly operations: readonly AnyOperation[];
  /** One a resource, in the order of the resources. */
  readonly tags: readonly ResourceTag[];
  private readonly byName = new Map<string, AnyOperation>();
  private readonly tagByName = new Map<string, ResourceTag>();

  constructor(resources: readonly Pick<Resource, 'tag' | 'operations'>[]) {
    const operations = resources.flatMap((r) => r.operations);
    const routes = new Set<string>();
    const tagNames = new Set<string>();
    for (const { tag, operations } of resources) {
      if (tagNames.has(tag.name)) throw new Error(`Tag ${tag.name} is declared by two resources`);
      tagNames.add(tag.name);
      for (const op of operations) this.tagByName.set(op.name, tag);
    }
    for (const op of operations) {
      if (this.byName.has(op.name)) throw new Error(`Operation ${op.name} is declared twice`);
      const route = `${op.method} ${op.path.replace(/\{\w+\}/g, '{}')}`;
      if (routes.has(route)) throw new Error(`Route ${route} is declared twice (${op.name})`);
      routes.add(route);
      this.byName.set(op.name, op);
    }
    this.operations = operations;
    this.tags = resources.map((r) => r.tag);
  }

  get(name: string): AnyOperation | undefined {
    return this.byName.get(name);
  }

  /** The tag of the resource that declares the operation. */
  tagOf(op: AnyOperation): ResourceTag {
    const tag = this.tagByName.get(op.name);
    if (!tag) throw new Error(`Operation ${op.name} is not in the registry`);
    return tag;
  }

  /** The operations also offered as MCP tools: all but the REST-only uploads. */
  get tools(): AnyOperation[] {
    return this.operations.filter((op) => !op.restOnly);
  }
}
