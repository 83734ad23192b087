/** A one-line description of the machine and runtime the figures come from. */
import { cpus, totalmem } from 'node:os';

/** e.g. `2 x Intel(R) Xeon(R) ... , 24.0 GiB, Linux 6.1, Node v20.20.2`. */
export function describeMachine(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? 'unknown CPU';
  const memory = (totalmem() / 1024 ** 3).toFixed(1);
  return `${list.length} x ${model}, ${memory} GiB, ${process.platform} ${process.arch}, Node ${process.version}`;
}
