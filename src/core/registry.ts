import type { AnyOperation } from './operation.ts';

/** Every operation by name; refuses two with one name or one route. */
export class Registry {
  readonly operations: readonly AnyOperation[];
  private readonly byName = new Map<string, AnyOperation>();

  constructor(operations: readonly AnyOperation[]) {
    const routes = new Set<string>();
    for (const op of operations) {
      if (this.byName.has(op.name)) throw new Error(`Operation ${op.name} is declared twice`);
      const route = `${op.method} ${op.path.replace(/\{\w+\}/g, '{}')}`;
      if (routes.has(route)) throw new Error(`Route ${route} is declared twice (${op.name})`);
      routes.add(route);
      this.byName.set(op.name, op);
    }
    this.operations = operations;
  }

  get(name: string): AnyOperation | undefined {
    return this.byName.get(name);
  }

  /** The operations also offered as MCP tools: all but the REST-only uploads. */
  get tools(): AnyOperation[] {
    return this.operations.filter((op) => !op.restOnly);
  }
}
