import type { Snapshot } from '../metrics.js';
import { bar, mib, num, seconds } from './format.js';
import type { ViewTotals } from './renderer.js';

/**
 * The live view's lines for one snapshot. With the default flags every line fits an 80-column
 * terminal; the live renderer cuts longer ones to the terminal's width.
 */
export function frameLines(s: Snapshot, totals: ViewTotals): string[] {
  const d = s.discord;
  const r = s.sim.redelivered;
  const retries = r[1] + r[2] + r[3];
  return [
    `rt demo  ${seconds(s.elapsedMs).padStart(7)}  phase: ${s.phase}`,
    `Events API  sent ${num(s.sim.eventsSent)}/${totals.events}  acked ${num(s.sim.eventsAcked)}  ` +
      `rejected 503 ${num(s.sim.rejected503)}  exhausted ${s.sim.exhausted}`,
    `Retries     sent ${num(retries)} (#1 ${r[1]}, #2 ${r[2]}, #3 ${r[3]})  waiting ` +
      `${num(s.retriesWaiting, 3)}  cancelled ${s.sim.retriesCancelled}`,
    `Handled     mentions ${num(s.handled.event)}/${totals.events}  /ask ${num(s.handled.command, 3)}/` +
      `${totals.commands}  clicks ${num(s.handled.click, 3)}/${totals.clicks}  replies ${num(s.web.messagesPosted)}`,
    `Busy shown  /ask ${num(s.busyShown.commands, 3)} (ephemeral ack)  clicks ${num(s.busyShown.clicks, 3)} ` +
      '(via response_url)',
    `Discord ok  mentions ${num(d.answered.message)}/${totals.discordMessages}  /ask ` +
      `${num(d.answered.command, 3)}/${totals.discordCommands}  clicks ${num(d.answered.click, 3)}/` +
      `${totals.discordClicks}  choices ${num(d.answered.suggestion, 3)}/${totals.discordSuggestions}`,
    `Discord busy mentions ${num(d.busy.message, 3)} (reply)  /ask ${num(d.busy.command, 3)}  ` +
      `clicks ${num(d.busy.click, 3)} (type 4)  handlers ${num(d.handlersRunning, 3)}`,
    `In flight   ${bar(s.inFlight, s.maxDetached)} ${num(s.inFlight, 3)}/${s.maxDetached}  peak ` +
      `${s.peakSampled}  handlers ${num(s.handlersRunning, 3)}`,
    `Memory      rss ${mib(s.rssBytes)} (peak ${mib(s.peakRssBytes)})  heap ${mib(s.heapUsedBytes)} ` +
      `(peak ${mib(s.peakHeapUsedBytes)})`,
  ];
}

/** One plain progress line (no TTY). */
export function progressLine(s: Snapshot, totals: { events: number }): string {
  const r = s.sim.redelivered;
  return (
    `[${seconds(s.elapsedMs).padStart(7)}] ${s.phase.padEnd(10)} sent ${s.sim.eventsSent}/${totals.events} ` +
    `acked ${s.sim.eventsAcked} 503 ${s.sim.rejected503} redelivered ${r[1] + r[2] + r[3]} ` +
    `handled ${s.handled.event + s.handled.command + s.handled.click} ` +
    `busy ${s.busyShown.commands + s.busyShown.clicks} in-flight ${s.inFlight}/${s.maxDetached} ` +
    `rss ${mib(s.rssBytes)} discord answered ${sum(s.discord.answered)} busy ${sum(s.discord.busy)}`
  );
}

function sum(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}
