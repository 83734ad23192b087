/**
 * One node:http server for both platforms' HTTP endpoints: Slack's Request URL at `/slack/events`
 * and Discord's Interactions Endpoint URL at `/discord/interactions`; anything else is 404.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { toNodeListener } from '@rt/core';
import type { Bot } from './bot.js';

export const SLACK_PATH = '/slack/events';
export const DISCORD_PATH = '/discord/interactions';

/** The request listener routing by path. */
export function botListener(bot: Bot, onError?: (error: unknown) => void): RequestListener {
  const listenerOptions = onError !== undefined ? { onError } : {};
  const slack = toNodeListener(bot.handlers.slack, listenerOptions);
  const discord = toNodeListener(bot.handlers.discord, listenerOptions);
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === SLACK_PATH) return slack(req, res);
    if (path === DISCORD_PATH) return discord(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not Found');
  };
}

/** A server for `bot` (not listening yet). */
export function createBotServer(bot: Bot, onError?: (error: unknown) => void): Server {
  return createServer(botListener(bot, onError));
}
