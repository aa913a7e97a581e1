import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Copies the embedded store's WAL back into the database file on a thread of its own
 * (docs/decisions/performance.md, "Checkpoints off the request path"). SQLite's automatic
 * checkpoint runs inside the commit that crosses its threshold, on the connection that committed:
 * with node:sqlite that is the event loop, blocked while a thousand pages are written back and
 * synced, and every write pays its pages' share of that wait. Here a second connection, in a
 * worker thread, checkpoints without blocking writers (PASSIVE), so a commit only appends its pages.
 */
/**
 * The size the log is kept to: past it (in pages) the thread empties it when it was not rewound,
 * and a writer that rewinds it cuts its file back to it (journal_size_limit), so a burst of writes
 * leaves no lasting large file behind.
 */
export const WAL_KEPT_BYTES = 16 * 1024 * 1024;

/**
 * How long after the store opens the thread starts: a process that opens the store for a moment
 * (the admin command line, a migration check) never pays for a thread, and a log a second old is
 * still small (the writer's own backstop stands meanwhile).
 */
const START_AFTER_MS = 1000;

export class WalCheckpointer {
  private worker: Worker | undefined;
  private readonly starting: NodeJS.Timeout;
  private stopped = false;

  /**
   * @param onFailure called once if the worker stops by itself: the connection then goes back to
   * checkpointing in its commits, so the WAL never grows unwatched.
   */
  constructor(file: string, onFailure: (error: unknown) => void) {
    this.starting = setTimeout(() => this.start(file, onFailure), START_AFTER_MS);
    this.starting.unref();
  }

  private start(file: string, onFailure: (error: unknown) => void): void {
    const worker = new Worker(new URL('./wal-checkpointer.worker.ts', import.meta.url), {
      workerData: { file, keptBytes: WAL_KEPT_BYTES },
      stdout: false,
      stderr: false,
    });
    // The thread holds no request: a process that is done need not wait for it.
    worker.unref();
    worker.once('error', (error) => {
      if (!this.stopped) onFailure(error);
    });
    worker.once('exit', (code) => {
      if (!this.stopped) onFailure(new Error(`the WAL checkpointer exited with code ${code}`));
    });
    this.worker = worker;
  }

  /** Lets the worker finish the checkpoint it is in and close its connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.starting);
    const worker = this.worker;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.postMessage('stop');
    const timer = setTimeout(() => void worker.terminate(), 5000);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
