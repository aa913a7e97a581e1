import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * The WAL checkpointer's thread (wal-checkpointer.ts). A PASSIVE checkpoint copies what it can
 * without waiting for anyone; under a steady stream of writes the log may then never be caught up
 * at the moment a writer starts (the only time SQLite rewinds it), so past a size it is caught up
 * with a checkpoint that makes writers wait the short while it takes. While writes keep coming that
 * is RESTART: the next writer rewinds the log itself and overwrites the file's pages, cut back to the
 * kept size (journal_size_limit). TRUNCATE, which empties the file, is for a log left long once the
 * writes stopped: it rewrites the log's header from this connection, so every other connection
 * drops its page cache and reads its pages again, and the writes after it extend an empty file
 * (docs/decisions/performance.md, "The log caught up without emptying it").
 */

/** How often the log is looked at while writes come in, and while none do. */
const BUSY_EVERY_MS = 100;
const IDLE_EVERY_MS = 1000;
const { file, keptBytes } = workerData as { file: string; keptBytes: number };
const db = new DatabaseSync(file);
db.exec('PRAGMA busy_timeout = 1000');
/** Frames (pages) in the log past which it is caught up (and, once writes stopped, emptied). */
const catchUpAfterFrames = Math.floor(
  keptBytes / Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size),
);
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');

interface Checkpoint {
  busy: number;
  log: number;
  checkpointed: number;
}

let lastLog = 0;
let timer: NodeJS.Timeout | undefined;

function tick(): void {
  const done = passive.get() as unknown as Checkpoint;
  const moved = done.log !== lastLog;
  if (done.log > catchUpAfterFrames) (moved ? restart : truncate).get();
  lastLog = done.log;
  timer = setTimeout(tick, moved ? BUSY_EVERY_MS : IDLE_EVERY_MS);
}

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort?.close();
});

timer = setTimeout(tick, BUSY_EVERY_MS);
