import { type LimitNode, type OffsetNode, type OperationNode, SqliteQueryCompiler, ValueNode } from 'kysely';
import { isRowCount } from '../rowCount.ts';

/** SQLite's query compiler, writing the query builder's LIMIT and OFFSET numbers into the text (db/rowCount.ts says why). */
export class RowLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    if (!this.appendRowCount('limit ', node.limit)) super.visitLimit(node);
  }

  protected override visitOffset(node: OffsetNode): void {
    if (!this.appendRowCount('offset ', node.offset)) super.visitOffset(node);
  }

  /** A number is written in; an expression or anything else stays what it was. */
  private appendRowCount(clause: string, value: OperationNode): boolean {
    if (!ValueNode.is(value) || !isRowCount(value.value)) return false;
    this.append(`${clause}${value.value}`);
    return true;
  }
}
