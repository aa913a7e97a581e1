import { type LimitNode, type QueryCompiler, SqliteDialect, SqliteQueryCompiler, ValueNode } from 'kysely';

/**
 * Kysely's SQLite dialect, but a LIMIT that is a whole number is written into the statement rather
 * than bound. SQLite's planner reads the value bound to a LIMIT (3.53 as Node 24 ships it), so every
 * new binding expires the prepared statement and the next run parses and plans it again: a page of
 * guides or spots cost about 270,000 instructions more per run than the query itself (counted with
 * callgrind). Written in, each limit's statement is prepared once and kept by the adapter's cache.
 * PostgreSQL keeps its bound limits: there one named statement serves every limit.
 */
export class EmbeddedDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new WrittenLimitCompiler();
  }
}

class WrittenLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const limit = node.limit;
    if (ValueNode.is(limit) && Number.isSafeInteger(limit.value) && (limit.value as number) >= 0) {
      this.append(`limit ${limit.value}`);
    } else {
      super.visitLimit(node);
    }
  }
}
