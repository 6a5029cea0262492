/**
 * Cursors belong to the session and transaction that opened them: MongoDB 7.0 serves getMore only to
 * the same `lsid` and `txnNumber` (getmore_cmd.cpp, validateLSID and validateTxnNumber, codes
 * 50736–50741). killCursors does not check the session when authentication is off, so it is not
 * checked here either.
 */
import type { Cursor, CursorOwner } from '../engine/cursors.js';
import { CommandError } from '../errors.js';
import type { CommandContext } from './context.js';
import { printedSessionId } from './session-info.js';

/** The owner a cursor opened by this command gets. */
export function cursorOwner(ctx: CommandContext): CursorOwner {
  return { sessionId: ctx.session?.id, txnNumber: ctx.txnNumber };
}

/**
 * Refuses a getMore from another session or transaction than the cursor's.
 * @throws CommandError 50736 (cursor without a session, getMore in one), 50737 (cursor in a session,
 *   getMore without), 50738 (another session), 50739/50740/50741 (the same for transaction numbers).
 */
export function checkGetMoreOwner(ctx: CommandContext, cursor: Cursor): void {
  const id = cursor.id.toString();
  const mine = cursorOwner(ctx);
  const theirs = cursor.owner;
  const prefix = `Cannot run getMore on cursor ${id}, which was`;
  if (mine.sessionId !== undefined && theirs.sessionId === undefined)
    throw new CommandError(
      50736,
      `${prefix} not created in a session, in session ${printedSessionId(mine.sessionId)}`,
    );
  if (mine.sessionId === undefined && theirs.sessionId !== undefined)
    throw new CommandError(
      50737,
      `${prefix} created in session ${printedSessionId(theirs.sessionId)}, without an lsid`,
    );
  if (mine.sessionId !== theirs.sessionId)
    throw new CommandError(
      50738,
      `${prefix} created in session ${printedSessionId(theirs.sessionId!)}, in session ${printedSessionId(mine.sessionId!)}`,
    );
  if (mine.txnNumber !== undefined && theirs.txnNumber === undefined)
    throw new CommandError(50739, `${prefix} not created in a transaction, in transaction ${mine.txnNumber}`);
  if (mine.txnNumber === undefined && theirs.txnNumber !== undefined)
    throw new CommandError(
      50740,
      `${prefix} created in transaction ${theirs.txnNumber}, without a txnNumber`,
    );
  if (mine.txnNumber !== theirs.txnNumber)
    throw new CommandError(
      50741,
      `${prefix} created in transaction ${theirs.txnNumber}, in transaction ${mine.txnNumber}`,
    );
}
